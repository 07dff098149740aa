// History entries of the window (window.ts) → the model's messages.
import type { ModelMessage, UserContent } from 'ai'
import { projectionParts, type ProjectedItem } from './projection'
import type { Entry } from '../types'
import { channelHeader, factLine } from '../render-facts'

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
