// History entries → the model's messages, trimmed to the context window without ever separating
// a tool call from its result (a step entry holds both and is kept or dropped whole).
import type { ModelMessage } from 'ai'
import type { Entry } from './types'
import { channelHeader, factLine } from './render-facts'

export interface WindowLimits {
  maxMessages: number
  maxChars: number
}

interface Unit {
  entry: Entry
  messages: number
  chars: number
}

function sizeOf(entry: Entry): Unit {
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

/** Consecutive facts and notes become one user message; cross mode names the channel of each run. */
export function toModelMessages(entries: Entry[], cross: boolean): ModelMessage[] {
  const out: ModelMessage[] = []
  let lines: string[] = []
  let channel: string | undefined
  const flush = () => {
    if (lines.length) out.push({ role: 'user', content: lines.join('\n') })
    lines = []
    channel = undefined
  }
  for (const e of entries) {
    if (e.type === 'fact') {
      const key = `${e.fact.bot}\u0000${e.fact.channel}`
      if (cross && key !== channel) lines.push(channelHeader(e.fact))
      channel = key
      lines.push(factLine(e.fact))
    } else if (e.type === 'note') {
      lines.push(e.text)
    } else if (e.type === 'step') {
      flush()
      out.push(...e.messages)
    }
  }
  flush()
  return out
}
