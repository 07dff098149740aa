// One upkeep run over a runtime's conversations (SPEC §26): for each with messages new since its
// last look, chunk by chunk (page.ts), each chunk a run of its own in each of its chats (cross mode:
// one per channel, so a private chat's run sees and changes only what that chat may). How far it
// looked is stored after each chunk. The budgets stop the whole run; upkeep.maxTokens one
// conversation's: the messages it did not reach are left (counted in the report), so one flooded
// chat never holds back the others, nor the next day.
import { BudgetExceeded, type Payer } from '../contract/budget'
import { chatOf } from '../contract/turn-scope'
import type { Tool, TurnChat, TurnState } from '../contract/tool'
import type { RecallDoc } from '../recall/docs'
import { historyUrl } from '../recall/history-url'
import type { ReadScope } from '../resources/types'
import { describeFailure } from '../model/failure'
import { FailedStep } from '../model/failover'
import type { CallRunner } from '../tools/run-call'
import { chunkMessage, chunkOf } from './page'
import { peopleBlock, type ReadText } from './people'
import { upkeepSystem } from './prompt'
import { proposeTool, type ProposeDeps } from './propose-tool'
import type { RunReport } from './run-report'
import { runChunk, type ChunkUsage } from './run'
import type { MessageIndex } from './sources'
import type { UpkeepState } from './state'

export interface RunAllDeps {
  now(): number
  zone: string
  platform: string
  botName: string
  model: string
  maxTokens: number
  /** conversations of the runtime, and each one's numbered messages (recall's index) */
  keys(): Promise<string[]>
  index(key: string): Promise<MessageIndex>
  cross: boolean
  recalled(d: RecallDoc): boolean
  /** the notes as a chat of this scope sees them (memory's section) */
  notes(scope: ReadScope): string
  read: ReadText
  /** the tools a run reads with: read, and search when recall offers it */
  tools: [string, Tool][]
  propose: ProposeDeps
  calls: Parameters<typeof runChunk>[0]['calls']
  runner: CallRunner
  /** writes the state (how far each conversation was looked at) */
  save(state: UpkeepState): Promise<void>
}

export async function runAll(d: RunAllDeps, state: UpkeepState, report: RunReport): Promise<void> {
  for (const key of (await d.keys()).sort()) {
    if (d.runner.signal.aborted) {
      report.stopped = 'stopped'
      return
    }
    // the day's changes are made: what is left waits for tomorrow's run, unread
    if (d.propose.left() <= 0) {
      report.stopped = 'limit'
      return
    }
    try {
      await runConversation(d, state, key, report)
    } catch (e: any) {
      if (e instanceof BudgetExceeded) {
        report.stopped = 'budget'
        report.why = e.message
      } else if (d.runner.signal.aborted) {
        report.stopped = 'stopped'
      } else {
        report.stopped = 'failed'
        report.why = describeFailure(e instanceof FailedStep ? e.error : e)
      }
      return
    }
  }
}

/** The number of the first message at or after `since` (messages are in time order). */
function firstSince(index: MessageIndex, since: number): number {
  let lo = 0
  let hi = index.count
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((index.docs(mid, mid + 1)[0]?.at ?? Infinity) < since) lo = mid + 1
    else hi = mid
  }
  return lo
}

async function runConversation(d: RunAllDeps, state: UpkeepState, key: string, report: RunReport): Promise<void> {
  const index = await d.index(key)
  let from = state.through[key] ?? firstSince(index, state.since)
  const total = index.count
  if (from >= total) return
  report.conversations++
  report.messages += total - from
  const usage: ChunkUsage = { requests: 0, promptTokens: 0, cachedTokens: 0 }
  // one system prompt per chat for the whole run: a change applied in one chunk does not change the
  // next chunk's prefix, so the provider's prompt cache holds it (the [people] lines show notes fresh)
  const systems = new Map<string, string>()
  try {
    while (from < total) {
      const chunk = chunkOf((a, b) => index.docs(a, b), from, total)
      if (d.propose.left() <= 0) {
        report.stopped = 'limit'
        break
      }
      for (const [chat, docs] of chatsOf(key, chunk.docs, d.cross)) {
        if (usage.promptTokens >= d.maxTokens) break
        await runPlace(d, key, chat, docs, { first: from, end: chunk.end, total, index, systems }, usage)
      }
      from = chunk.end
      // the messages the tokens did not reach are left for good: the next run starts after them
      if (usage.promptTokens >= d.maxTokens && from < total) {
        report.skipped = (report.skipped ?? 0) + total - from
        from = total
      }
      state.through[key] = from
      await d.save(state)
    }
  } finally {
    report.requests += usage.requests
    report.promptTokens += usage.promptTokens
    report.cachedTokens += usage.cachedTokens
  }
}

/** The chats of a chunk: channel mode, the conversation's own; cross mode, each channel's messages. */
function chatsOf(key: string, docs: RecallDoc[], cross: boolean): [TurnChat | undefined, RecallDoc[]][] {
  if (!cross) return [[chatOf(key), docs]]
  const by = new Map<string, RecallDoc[]>()
  for (const doc of docs) if (doc.ch) (by.get(doc.ch) ?? by.set(doc.ch, []).get(doc.ch)!).push(doc)
  return [...by].map(([ch, list]) => [chatOf(ch), list])
}

async function runPlace(
  d: RunAllDeps, key: string, chat: TurnChat | undefined, docs: RecallDoc[],
  at: { first: number; end: number; total: number; index: MessageIndex; systems: Map<string, string> }, usage: ChunkUsage,
): Promise<void> {
  const scope: ReadScope = { conversation: key, ...chat ? { chat } : {} }
  const place = chat?.channel ?? ''
  const system = at.systems.get(place) ?? upkeepSystem({ name: d.botName, notes: d.notes(scope) })
  at.systems.set(place, system)
  const own = historyUrl(key)
  const where = !chat ? 'every chat' : chat.direct ? `the private chat with ${docs.find(x => !x.self)?.who ?? chat.user}` : `the group ${chat.channel}`
  const people = await peopleBlock(docs, { platform: d.platform, scope, read: d.read })
  const first = chunkMessage(docs, { own, where, first: at.first, end: at.end, total: at.total, zone: d.zone, people, recalled: d.recalled })
  const tools = new Map<string, Tool>([...d.tools, ['propose', proposeTool(d.propose, { key, chat, index: at.index, own })]])
  const turn: TurnState = { number: 0, wokeAt: d.now(), conversation: key, ...chat ? { chat } : {} }
  const payer: Payer = { conversation: key }
  await runChunk({
    calls: d.calls, model: d.model, payer, runner: d.runner, tokensLeft: () => d.maxTokens - usage.promptTokens,
  }, { system, first, state: turn, tools }, usage)
}
