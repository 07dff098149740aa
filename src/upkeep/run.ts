// One part of an upkeep run (SPEC §26): a chunk of one chat's new messages in a context of its own.
// The model is called as a turn's steps are (counted, failed over, gated by the budgets), with
// read, search and propose; there is no send_message and no turn in any conversation. It ends
// after a step without tool calls (or with finish, offered to a model that must call a tool every
// step), a step whose calls were all proposals that succeeded, at
// MAX_STEPS, or when the run's prompt tokens reach upkeep.maxTokens.
import type { ModelMessage } from 'ai'
import type { Payer } from '../contract/budget'
import type { Tool, TurnState } from '../contract/tool'
import { callModel, offerTools, type ModelStep } from '../model/call-model'
import { stepTokens, type CallPort } from '../model/calls'
import { runCalls, stepMessages, type CallRunner } from '../tools/run-call'

/** steps one chunk may take: a few proposals, a read or a search, a fix of a refused one */
export const MAX_STEPS = 6

/** a rough count where a server tells none (CJK text is about one character a token, English four) */
const CHARS_PER_TOKEN = 2

export type ChunkEndReason = 'done' | 'steps' | 'tokens'

export interface ChunkUsage {
  requests: number
  promptTokens: number
  cachedTokens: number
}

export interface ChunkRun {
  system: string
  first: string
  state: TurnState
  tools: Map<string, Tool>
}

export interface RunDeps {
  calls: Pick<CallPort, 'run'>
  model: string
  payer: Payer
  runner: CallRunner
  /** prompt tokens the conversation's run may still spend */
  tokensLeft(): number
}

/** Runs one chunk; usage is added to `usage` as each step is answered. Throws what the call throws (BudgetExceeded, a failure). */
export async function runChunk(d: RunDeps, run: ChunkRun, usage: ChunkUsage): Promise<ChunkEndReason> {
  const messages: ModelMessage[] = [{ role: 'user', content: run.first }]
  const offered = offerTools(run.tools)
  const signal = d.runner.signal
  for (let step = 0; step < MAX_STEPS; step++) {
    if (d.tokensLeft() <= 0) return 'tokens'
    const answer = await d.calls.run<ModelStep>({
      kind: 'step', model: d.model, key: 'upkeep', signal, payer: d.payer, tokens: r => stepTokens(r.usage),
      call: h => callModel(h, { system: run.system, messages, tools: offered, hidden: () => undefined, signal }),
    })
    const result = answer.result!
    const t = stepTokens(result.usage)
    usage.requests++
    // a server that reports no usage is counted by its request's length, so maxTokens still bounds the run
    usage.promptTokens += t.promptTokens ?? Math.ceil((run.system.length + JSON.stringify(messages).length) / CHARS_PER_TOKEN)
    usage.cachedTokens += t.cachedTokens ?? 0
    if (!result.calls.length) return 'done'
    const calls = await runCalls(d.runner, run.state, run.tools, result.calls)
    messages.push(...stepMessages(result.assistant, calls))
    if (calls.some(c => c.name === 'finish' && c.valid)) return 'done'
    if (calls.every(c => c.name === 'propose' && c.valid && (c.output as any)?.ok === true)) return 'done'
  }
  return 'steps'
}
