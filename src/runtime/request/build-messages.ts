// History entries of the window (window.ts) → the model's messages.
import type { ModelMessage, UserContent } from 'ai'
import { projectionParts, type ProjectedItem } from './projection'
import type { Entry } from '../../history/entries'
import { channelHeader } from '../../history/render-facts'
import { entryLine } from './entry-line'
import { pairCalls } from '../../history/pair-calls'

// Steps are paired when a history is loaded; a request checks once more (SPEC §10), once per entry.
const paired = new WeakMap<Entry, ModelMessage[]>()

function stepMessages(e: Extract<Entry, { type: 'step' }>): ModelMessage[] {
  let messages = paired.get(e)
  if (!messages) {
    const fixed = pairCalls(e)
    paired.set(e, messages = fixed ? fixed.entry?.messages ?? [] : e.messages)
  }
  return messages
}

/**
 * Consecutive facts, notes and turn openings (their time, turn-line.ts) become one user message;
 * cross mode names the channel of each run. A turn's opening note (why it woke, the people present)
 * reads before its `[now: …]`, so the present is the last line a turn starts with (SPEC §27).
 * Projected attachments join the user message of their facts, or follow a step's tool results
 * as a user message of their own (providers carry no images inside tool results). `zone`: the
 * lines' times (budgets.timezone; '' : the host's).
 */
export function toModelMessages(entries: Entry[], cross: boolean, zone: string, projected?: Map<string, ProjectedItem[]>): ModelMessage[] {
  const out: ModelMessage[] = []
  let lines: string[] = []
  let media: Exclude<UserContent, string> = []
  let channel: string | undefined
  /** the turn entry whose line was pushed last */
  let lastTurn: Entry | undefined
  const flush = () => {
    if (media.length) out.push({ role: 'user', content: [...(lines.length ? [{ type: 'text' as const, text: lines.join('\n') }] : []), ...media] })
    else if (lines.length) out.push({ role: 'user', content: lines.join('\n') })
    lines = []
    media = []
    channel = undefined
  }
  for (const e of entries) {
    const after = lastTurn
    lastTurn = undefined
    if (e.type === 'fact') {
      if (media.length) flush()
      const key = `${e.fact.bot}\u0000${e.fact.channel}`
      if (cross && key !== channel) lines.push(channelHeader(e.fact))
      channel = key
      lines.push(entryLine(e, zone))
    } else if (e.type === 'note' || e.type === 'turn') {
      if (media.length) flush()
      if (opensTurn(e, after)) lines.splice(lines.length - 1, 0, entryLine(e, zone))
      else lines.push(entryLine(e, zone))
      lastTurn = e.type === 'turn' ? e : undefined
    } else if (e.type === 'step') {
      flush()
      out.push(...stepMessages(e))
    } else if (e.type === 'attachments') {
      const items = projected?.get(e.id)
      if (items?.length) media.push(...projectionParts(items))
    }
  }
  flush()
  return out
}

/** The note a turn opens with (turn-opening.ts): right after its turn entry, at the same time. */
function opensTurn(e: Extract<Entry, { type: 'note' | 'turn' }>, turn: Entry | undefined): boolean {
  return e.type === 'note' && e.kind === 'wake' && turn?.type === 'turn' && turn.at === e.at
}
