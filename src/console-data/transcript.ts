// A conversation's history entries as the console page shows them (SPEC §12): facts, turns with
// why each woke and how it ended, steps with model, latency, tokens and cost (§16), tool calls
// and their results as the model read them, sends delivered or failed, model calls that failed
// (§11). Pure: entries in, JSON out.
import h from '@satorijs/element'
import { addCost, costOf, type PriceOf } from '../usage/cost'
import type { Entry, LiveStep, ReactionTally } from '../history/entries'
import { voicesIn } from '../history/voice-line'
import { displayName, indentContinuation } from '../util/transcript-text'
import { sentActs } from './sent-acts'
import { sentVoices } from './sent-voices'
import type { CallItem, ConversationUsage, FactItem, StepItem, Transcript, TranscriptItem, TurnItem } from './types'

/** The transcript shows at most this many of the newest entries. */
export const TRANSCRIPT_ENTRIES = 400
/** A result longer than this is cut for the page (the model's own copy is on disk). */
const MAX_RESULT = 20_000

const noPrice: PriceOf = () => undefined

/**
 * `priceOf`: the models' prices, for the cost of each step, turn and of the whole; `live`: the step
 * whose calls run now, shown after the entries (issue 21: the page must not lag the chat)
 */
export interface TranscriptInput {
  key: string
  entries: readonly Entry[]
  busy: boolean
  live?: LiveStep
  truncated?: boolean
  limit?: number
  priceOf?: PriceOf
}

export function transcript(o: TranscriptInput): Transcript {
  const stored = o.limit && o.entries.length > o.limit ? o.entries.slice(-o.limit) : o.entries
  const live: Entry | undefined = o.live && o.busy
    ? { type: 'step', at: o.live.at, turn: o.live.turn, messages: o.live.assistant ? [o.live.assistant] : [], usage: o.live.usage }
    : undefined
  const entries: readonly Entry[] = live ? [...stored, live] : stored
  const priceOf = o.priceOf ?? noPrice
  const usage: ConversationUsage = { steps: 0, promptTokens: 0, cachedTokens: 0, completionTokens: 0 }
  const items: TranscriptItem[] = []
  const turns = new Map<number, TurnItem>()
  const steps = new Map<string, StepItem>()
  let last: TurnItem | undefined
  const seen = seenOf(entries)
  for (const e of entries) {
    switch (e.type) {
      case 'fact':
        items.push(factItem(e))
        break
      case 'turn':
        last = {
          kind: 'turn', at: e.at, turn: e.turn, reason: e.reason, steps: 0, tokens: 0, end: 'none',
          ...(e.merged ? { merged: e.merged } : {}), ...(e.waitedMs ? { waitedMs: e.waitedMs } : {}), ...(e.late ? { late: true } : {}),
        }
        turns.set(e.turn, last)
        items.push(last)
        break
      case 'note':
        items.push({ kind: 'note', at: e.at, note: e.kind, text: e.text })
        break
      case 'step': {
        const step = stepItem(e, priceOf, seen, e.type === 'step' && o.live?.at === e.at && entries.at(-1) === e ? o.live.delivered : undefined)
        for (const c of step.calls) steps.set(c.id, step)
        items.push(step)
        if (e.usage) addUsage(usage, step, e.at)
        const turn = turns.get(e.turn)
        if (turn) {
          turn.steps++
          turn.tokens += (step.promptTokens ?? 0) + (step.completionTokens ?? 0)
          turn.cost = addCost(turn.cost, step.cost)
          turn.end = endOf(step)
          if (step.loaded) turn.loaded = [...turn.loaded ?? [], ...step.loaded]
          delete turn.error
          // a send the platform refused: its own words on the turn (issue 21)
          const failed = turn.end === 'failed' ? step.calls.find(c => c.send && !c.send.delivered)?.send?.error : undefined
          if (failed) turn.error = failed
        }
        break
      }
      case 'declined':
        items.push({ kind: 'declined', at: e.at, reason: e.reason, why: e.why })
        break
      case 'wait':
        const windows = { ...(e.seconds !== undefined ? { seconds: e.seconds } : {}), ...(e.messages !== undefined ? { messages: e.messages } : {}) }
        items.push({ kind: 'wait', at: e.at, ...windows })
        break
      case 'failure': {
        const latency = e.latencyMs !== undefined ? { latencyMs: e.latencyMs } : {}
        items.push({ kind: 'failure', at: e.at, turn: e.turn, model: e.model, error: e.error, ...latency })
        // the turn ended by it, unless a later step of the same turn says otherwise
        const turn = turns.get(e.turn)
        if (turn) Object.assign(turn, { end: 'error', error: e.error })
        break
      }
      case 'attachments': {
        const urls = e.items.map(i => ({ url: i.url, mediaType: i.mediaType }))
        const step = e.source === 'tool' ? steps.get(e.id) : undefined
        if (step) step.attachments.push(...urls)
        // a fact's images are already on the fact
        break
      }
    }
  }
  if (o.busy && last) last.end = 'running'
  return { key: o.key, busy: o.busy, truncated: !!o.truncated || stored.length < o.entries.length, items, usage }
}

/** What the steps of `entries` took, as the transcript of them counts it (the conversation list's figure). */
export function conversationUsage(entries: readonly Entry[], priceOf: PriceOf = noPrice): ConversationUsage {
  const usage: ConversationUsage = { steps: 0, promptTokens: 0, cachedTokens: 0, completionTokens: 0 }
  for (const e of entries.length > TRANSCRIPT_ENTRIES ? entries.slice(-TRANSCRIPT_ENTRIES) : entries) {
    if (e.type === 'step' && e.usage) addUsage(usage, { ...e.usage, cost: costOf(e.usage, priceOf(e.usage.model)) }, e.at)
  }
  return usage
}

type Counted = Partial<Pick<StepItem, 'promptTokens' | 'cachedTokens' | 'cacheWriteTokens' | 'completionTokens' | 'cost'>>

function addUsage(to: ConversationUsage, u: Counted, at: number): void {
  to.steps++
  to.since ??= at
  to.promptTokens += u.promptTokens ?? 0
  to.cachedTokens += u.cachedTokens ?? 0
  if (u.cacheWriteTokens) to.cacheWriteTokens = (to.cacheWriteTokens ?? 0) + u.cacheWriteTokens
  to.completionTokens += u.completionTokens ?? 0
  const cost = addCost(to.cost, u.cost)
  if (cost !== undefined) to.cost = cost
}

function factItem(e: Extract<Entry, { type: 'fact' }>): FactItem {
  const f = e.fact
  const images: string[] = []
  let text = ''
  const walk = (els: h[]) => {
    for (const el of els) {
      if (el.type === 'text') text += el.attrs.content ?? ''
      else if (el.type === 'img' || el.type === 'image') {
        if (typeof el.attrs.src === 'string') images.push(el.attrs.src)
        text += '[image]'
      } else if (el.type === 'at') text += `@${el.attrs.name ?? el.attrs.id ?? ''}`
      // a QQ face (inbound/face.ts) reads to the owner as it did before SPEC §27 gave the mind the element
      else if (el.type === 'face') text += el.attrs.name ? `[face: ${el.attrs.name}]` : `[face ${el.attrs.id ?? ''}]`
      else if (el.type === 'quote') continue
      else if (el.children?.length) walk(el.children)
      else if (['audio', 'video', 'file'].includes(el.type)) text += `[${el.type}]`
    }
  }
  walk(h.parse(f.content))
  // who said what (SPEC §22): as the model reads it, the name by the name rule, later lines indented
  text = indentContinuation(text)
  return {
    kind: 'fact', at: e.at, id: f.id, user: { id: f.user.id, name: displayName(f.user.name, f.user.id) }, channel: f.channel,
    text, images, voices: voicesIn(text),
    ...(e.wake ? { wake: e.wake } : {}),
    ...(e.held ? { held: e.held } : {}),
    ...(f.notice ? { notice: f.notice } : {}), ...(f.reactions ? { reaction: reactionItem(f.reactions) } : {}),
    ...(f.recalled ? { recalled: true } : {}), ...(f.pulled ? { pulled: true } : {}),
  }
}

/** A reaction tally as the page shows it: the same names and emoji the model reads (history/reaction-line.ts). */
function reactionItem(t: ReactionTally): NonNullable<FactItem['reaction']> {
  const emoji = t.emoji.map(([e, n]) => n > 1 ? `${e}×${n}` : e).join(' ') + (t.more ? ` +${t.more}` : '')
  return { to: t.to, by: t.by.map(p => p.id ? displayName(p.name, p.id) : '?'), others: t.others, emoji }
}

/** What the sends' acts are read against (SPEC §23): the messages taken back, the names of those who wrote. */
interface Seen {
  unsent: Set<string>
  nameOf(id: string): string | undefined
}

function seenOf(entries: readonly Entry[]): Seen {
  const unsent = new Set<string>()
  const names = new Map<string, string>()
  for (const e of entries) {
    if (e.type === 'unsent') unsent.add(e.id)
    else if (e.type === 'fact' && !e.fact.notice) names.set(e.fact.user.id, displayName(e.fact.user.name, e.fact.user.id))
  }
  return { unsent, nameOf: id => names.get(id) }
}

/** `live`: the step's calls still run; messages delivered so far by call id */
function stepItem(e: Extract<Entry, { type: 'step' }>, priceOf: PriceOf, seen: Seen, live?: Record<string, number>): StepItem {
  const step: StepItem = {
    kind: 'step', at: e.at, turn: e.turn, calls: [], attachments: [],
    ...(e.usage ?? {}), ...(live ? { live: true } : {}), ...(e.loaded?.length ? { loaded: e.loaded } : {}),
  }
  const cost = e.usage && costOf(e.usage, priceOf(e.usage.model))
  if (cost !== undefined) step.cost = cost
  const results = new Map<string, any>()
  for (const m of e.messages) {
    if (m.role === 'tool' && Array.isArray(m.content)) for (const p of m.content) if (p.type === 'tool-result') results.set(p.toolCallId, p.output)
  }
  for (const m of e.messages) {
    if (m.role !== 'assistant') continue
    const parts = typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content
    for (const p of parts) {
      if (p.type === 'text' && p.text.trim()) step.text = (step.text ? step.text + '\n' : '') + p.text
      else if (p.type === 'reasoning' && p.text.trim()) step.reasoning = (step.reasoning ? step.reasoning + '\n' : '') + p.text
      else if (p.type === 'tool-call') {
        const { toolCallId: id, toolName: name, input } = p
        step.calls.push(live ? runningCall(id, name, input, live[id] ?? 0, seen) : callItem(id, name, input, results.get(id), seen))
      }
    }
  }
  return step
}

function callItem(id: string, tool: string, input: unknown, output: any, seen: Seen): CallItem {
  const error = output?.type === 'error-text' || output?.type === 'error-json' || output === undefined
  const item: CallItem = { id, tool, input: pretty(input), result: output === undefined ? '(no result)' : resultText(output), error }
  if (tool === 'send_message') {
    const value = output?.type === 'json' ? output.value : undefined
    const messages = Array.isArray((input as any)?.messages) ? (input as any).messages.map(String) : []
    const voices = sentVoices(input, value)
    item.send = {
      messages, delivered: value?.ok === true, ids: Array.isArray(value?.ids) ? value.ids.length : Array.isArray(value?.sent) ? value.sent.length : 0,
      ...(value?.ok === false ? { error: `${value.error?.name ?? 'Error'}: ${value.error?.message ?? ''}` } : error ? { error: item.result } : {}),
      ...(voices.length ? { voices } : {}),
      ...actsOf(input, value, seen),
    }
  }
  return item
}

/** a send's messages without their acts, the acts, the messages taken back: only what there is */
function actsOf(input: unknown, value: unknown, seen: Seen): Partial<NonNullable<CallItem['send']>> {
  const a = sentActs(input, value, seen.unsent, seen.nameOf)
  return { messages: a.texts, ...(a.acts.length ? { acts: a.acts } : {}), ...(a.unsent.length ? { unsent: a.unsent } : {}) }
}

/** A call that still runs: no result yet; a send says how many of its messages are out. */
function runningCall(id: string, tool: string, input: unknown, delivered: number, seen: Seen): CallItem {
  const item: CallItem = { id, tool, input: pretty(input), result: '', error: false, running: true }
  if (tool === 'send_message') {
    const messages = Array.isArray((input as any)?.messages) ? (input as any).messages.map(String) : []
    item.send = { messages, delivered: false, ids: delivered, sending: true, ...actsOf(input, undefined, seen) }
  }
  return item
}

/** A tool result as the model read it (the AI SDK's tool-result output). */
export function resultText(output: any): string {
  let text: string
  switch (output?.type) {
    case 'text':
    case 'error-text':
      text = String(output.value)
      break
    case 'json':
    case 'error-json':
      text = pretty(output.value)
      break
    case 'content':
      text = (output.value ?? []).map((p: any) => p.type === 'text' ? p.text : `[${p.mediaType ?? p.type}]`).join('\n')
      break
    case 'execution-denied':
      text = `execution denied${output.reason ? `: ${output.reason}` : ''}`
      break
    default:
      text = pretty(output)
  }
  return text.length > MAX_RESULT ? text.slice(0, MAX_RESULT) + `\n… (${text.length - MAX_RESULT} more characters)` : text
}

function pretty(v: unknown): string {
  if (typeof v === 'string') return v
  try {
    return JSON.stringify(v, null, 2) ?? String(v)
  } catch {
    return String(v)
  }
}

/** How a turn whose last step is `step` ended. */
function endOf(step: StepItem): TurnItem['end'] {
  const names = step.calls.map(c => c.tool)
  if (names.includes('finish')) return 'finish'
  if (names.includes('wait')) return 'wait'
  if (step.calls.some(c => c.send)) return step.calls.every(c => !c.send || c.send.delivered) ? 'send' : 'failed'
  if (!step.calls.length) return 'text'
  return 'steps'
}
