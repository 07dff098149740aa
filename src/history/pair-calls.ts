// A tool call never goes out without its result, nor a result without its call (SPEC §10): a
// stored step whose result is missing (a crash mid-step, a hand-edited file, a lost database row)
// would make every later request fail before it is sent, and keep the channel broken for good.
// A repaired step: a call without its result gets a result saying the step was cut off; a result
// without its call is left out; a call id that an earlier step already used (histories written
// before kotodama chose its own ids, issue 19) gets a fresh one. Applied when a history is loaded
// and to every step a request shows.
import type { ModelMessage } from 'ai'
import { newCallId } from '../util/call-id'
import type { Entry } from './entries'

type Step = Extract<Entry, { type: 'step' }>

export const CUT_OFF = 'this call was cut off: its result was never stored (a crash or a lost write). '
  + 'If it mattered, check whether it happened before doing it again.'

export interface Repaired {
  /** the repaired step; undefined when nothing of it is left */
  entry?: Step
  /** what was wrong, for the log */
  problem: string
}

type CallPart = { toolCallId: string; toolName: string }

const callsOf = (m: ModelMessage) => m.role === 'assistant' && Array.isArray(m.content)
  ? m.content.filter(p => p.type === 'tool-call') as CallPart[]
  : []
const resultsOf = (m: ModelMessage) => m.role === 'tool'
  ? m.content.filter(p => p.type === 'tool-result') as { toolCallId: string }[]
  : []

/** Repairs steps; `seen` carries the call ids of the steps before (pass one set per history). */
export function pairCalls(entry: Step, seen = new Set<string>()): Repaired | undefined {
  const calls = entry.messages.flatMap(callsOf)
  const answered = new Set(entry.messages.flatMap(resultsOf).map(r => r.toolCallId))
  const asked = new Set(calls.map(c => c.toolCallId))
  const missing = calls.filter(c => !answered.has(c.toolCallId))
  const lone = [...answered].filter(id => !asked.has(id))
  const reused = [...asked].filter(id => seen.has(id))
  for (const id of asked) seen.add(id)
  if (!missing.length && !lone.length && !reused.length) return undefined

  const rename = new Map(reused.map(id => [id, newCallId()]))
  for (const id of rename.values()) seen.add(id)
  const renamed = (id: string) => rename.get(id) ?? id
  const messages: ModelMessage[] = []
  for (const m of entry.messages) {
    if (m.role === 'assistant' && Array.isArray(m.content)) {
      const content = m.content.map(p => p.type === 'tool-call' ? { ...p, toolCallId: renamed(p.toolCallId) } : p)
      messages.push({ ...m, content } as ModelMessage)
    } else if (m.role === 'tool') {
      const content = m.content
        .filter(p => p.type !== 'tool-result' || asked.has(p.toolCallId))
        .map(p => p.type === 'tool-result' ? { ...p, toolCallId: renamed(p.toolCallId) } : p)
      if (content.length) messages.push({ ...m, content })
    } else messages.push(m)
  }
  if (missing.length) {
    const results = missing.map(c => ({
      type: 'tool-result' as const,
      toolCallId: renamed(c.toolCallId),
      toolName: c.toolName,
      output: { type: 'error-text' as const, value: CUT_OFF },
    }))
    const last = messages.at(-1)
    if (last?.role === 'tool') messages[messages.length - 1] = { ...last, content: [...last.content, ...results] }
    else messages.push({ role: 'tool', content: results })
  }
  const problem = [
    missing.length && `${missing.length === 1 ? 'a call' : `${missing.length} calls`} without a result (${missing.map(c => c.toolName).join(', ')})`
      + ': answered as cut off',
    lone.length && `${lone.length === 1 ? 'a result' : `${lone.length} results`} without a call: left out`,
    reused.length && `${reused.length === 1 ? 'a call id' : `${reused.length} call ids`} already used by an earlier step: renamed`,
  ].filter(Boolean).join('; ')
  const kept = messages.some(m => m.role !== 'tool')
  return { entry: kept ? { ...entry, messages } : undefined, problem }
}
