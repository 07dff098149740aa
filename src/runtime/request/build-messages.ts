// History entries → the model's messages, trimmed to the context window without ever separating
// a tool call from its result (a step entry holds both and is kept or dropped whole).
import type { ModelMessage, UserContent } from 'ai'
import { projectionParts, type ProjectedItem } from './projection'
import type { Entry } from '../types'
import { channelHeader, factLine } from '../render-facts'

export interface WindowLimits {
  maxMessages: number
  maxChars: number
}

interface Unit {
  entry: Entry
  messages: number
  chars: number
}

// Entries never change once written, so their sizes are measured once.
const sizes = new WeakMap<Entry, Unit>()

function sizeOf(entry: Entry): Unit {
  let unit = sizes.get(entry)
  if (!unit) sizes.set(entry, unit = measure(entry))
  return unit
}

function measure(entry: Entry): Unit {
  switch (entry.type) {
    case 'fact': return { entry, messages: 1, chars: factLine(entry.fact).length }
    case 'note': return { entry, messages: 1, chars: entry.text.length }
    case 'step': return { entry, messages: entry.messages.length, chars: JSON.stringify(entry.messages).length }
    default: return { entry, messages: 0, chars: 0 }
  }
}

/** The newest entries that fit the window, oldest first. */
export function windowEntries(entries: Entry[], limits: WindowLimits): Entry[] {
  let messages = 0
  let chars = 0
  let start = entries.length
  for (let i = entries.length - 1; i >= 0; i--) {
    const u = sizeOf(entries[i])
    if (start < entries.length && (messages + u.messages > limits.maxMessages || chars + u.chars > limits.maxChars)) break
    messages += u.messages
    chars += u.chars
    start = i
  }
  // A window must not open on a tool message; step entries keep call and result together, so
  // only an assistant message could lead, which every provider accepts.
  return entries.slice(start)
}

/**
 * Consecutive facts and notes become one user message; cross mode names the channel of each run.
 * Projected attachments join the user message of their facts, or follow a step's tool results
 * as a user message of their own (providers carry no images inside tool results).
 */
export function toModelMessages(entries: Entry[], cross: boolean, projected?: Map<string, ProjectedItem[]>): ModelMessage[] {
  const out: ModelMessage[] = []
  let lines: string[] = []
  let media: Exclude<UserContent, string> = []
  let channel: string | undefined
  const flush = () => {
    if (media.length) out.push({ role: 'user', content: [...(lines.length ? [{ type: 'text' as const, text: lines.join('\n') }] : []), ...media] })
    else if (lines.length) out.push({ role: 'user', content: lines.join('\n') })
    lines = []
    media = []
    channel = undefined
  }
  for (const e of entries) {
    if (e.type === 'fact') {
      if (media.length) flush()
      const key = `${e.fact.bot}\u0000${e.fact.channel}`
      if (cross && key !== channel) lines.push(channelHeader(e.fact))
      channel = key
      lines.push(factLine(e.fact))
    } else if (e.type === 'note') {
      if (media.length) flush()
      lines.push(e.text)
    } else if (e.type === 'step') {
      flush()
      out.push(...e.messages)
    } else if (e.type === 'attachments') {
      const items = projected?.get(e.id)
      if (items?.length) media.push(...projectionParts(items))
    }
  }
  flush()
  return out
}
