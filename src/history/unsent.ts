// Messages the bot took back (SPEC §23): the step that sent one stays stored, and everything that
// shows the history to the model reads "[you unsent this]" before that message in send_message's call.
import type { Entry } from './entries'

export const UNSENT_TEXT = '[you unsent this]'

type Part = { type: string; toolCallId?: string; toolName?: string; input?: any; output?: any }

/** the ids a send_message result returned, in order (null: a message of acts only) */
function idsOf(output: any): unknown[] | undefined {
  let value = output?.value
  if (output?.type === 'text' && typeof value === 'string') {
    try { value = JSON.parse(value) } catch { return undefined }
  }
  return Array.isArray(value?.ids) ? value.ids : undefined
}

/**
 * Applies the `unsent` entries of `entries` (and the ids in `known`) to the steps whose send_message
 * sent those messages, in place; returns the ids known, for a caller that keeps reading later entries.
 */
export function markUnsent(entries: Entry[], known: Set<string> = new Set()): Set<string> {
  for (const e of entries) if (e.type === 'unsent') known.add(e.id)
  if (!known.size) return known
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]
    if (e.type !== 'step') continue
    const marked = markStep(e.messages as { role: string; content: unknown }[], known)
    if (marked) entries[i] = { ...e, messages: marked as typeof e.messages }
  }
  return known
}

function markStep(messages: { role: string; content: unknown }[], known: Set<string>): typeof messages | undefined {
  const hits = new Map<string, number[]>()
  for (const m of messages) {
    if (m.role !== 'tool' || !Array.isArray(m.content)) continue
    for (const p of m.content as Part[]) {
      if (p.type !== 'tool-result' || p.toolName !== 'send_message' || !p.toolCallId) continue
      const at = (idsOf(p.output) ?? []).flatMap((id, n) => typeof id === 'string' && known.has(id) ? [n] : [])
      if (at.length) hits.set(p.toolCallId, at)
    }
  }
  if (!hits.size) return undefined
  let changed = false
  const out = messages.map(m => {
    if (m.role !== 'assistant' || !Array.isArray(m.content)) return m
    const content = (m.content as Part[]).map(p => {
      const at = p.type === 'tool-call' && p.toolCallId ? hits.get(p.toolCallId) : undefined
      const list = p.input?.messages
      if (!at || !Array.isArray(list)) return p
      const messagesOut = list.map((text: unknown, n: number) =>
        at.includes(n) && typeof text === 'string' && !text.startsWith(UNSENT_TEXT) ? `${UNSENT_TEXT} ${text}` : text)
      changed = true
      return { ...p, input: { ...p.input, messages: messagesOut } }
    })
    return { ...m, content }
  })
  return changed ? out : undefined
}
