// What recall indexes of a history (SPEC §17): people's messages (fact entries) and the mind's own
// sends (direct send_message calls that delivered), one document per chat message, and what voice
// messages said, in history order. Everything else (steps' thoughts, notes, tool results) is not "what was said".
import h from '@satorijs/element'
import { normalizeTarget } from '../claims/channel-key'
import type { Entry } from '../history/entries'
import { voiceLine } from '../history/voice-line'
import { selfIdOf } from '../claims/bot-id'

export interface RecallDoc {
  /** where it comes from, unique in its history: `f:<channel>:<message id>` or `s:<at>:<call id>:<n>` */
  k: string
  /** the platform message id (null: a send whose id the platform did not tell) */
  id: string | null
  at: number
  /** author's name */
  who: string
  /** author's user id */
  uid: string
  /** the channel (cross mode: one history holds several); '' for a send of channel mode, which has one */
  ch: string
  text: string
  /** the mind's own message */
  self?: true
}

/** A document as stored in a segment or the live log: a JSON array, without the field names. */
export function encodeDoc(d: RecallDoc): string {
  return JSON.stringify(d.self ? [d.k, d.id, d.at, d.who, d.uid, d.ch, d.text, 1] : [d.k, d.id, d.at, d.who, d.uid, d.ch, d.text])
}

export function decodeDoc(json: string): RecallDoc {
  const a = JSON.parse(json)
  if (!Array.isArray(a) || typeof a[0] !== 'string' || typeof a[2] !== 'number' || typeof a[6] !== 'string') throw new Error('not a stored message')
  return { k: a[0], id: a[1] ?? null, at: a[2], who: String(a[3]), uid: String(a[4]), ch: String(a[5]), text: a[6], ...(a[7] ? { self: true as const } : {}) }
}

/** The bot as an author of its own messages. */
export interface SelfName {
  bot: string
  name?: string
}

/** Visible text of element markup: text, `@name` for mentions, `[image]` and the like for media. */
export function plainText(content: string): string {
  let out = ''
  const walk = (els: h[]) => {
    for (const el of els) {
      if (el.type === 'text') out += el.attrs.content ?? ''
      else if (el.type === 'at') out += `@${el.attrs.name ?? el.attrs.id ?? ''}`
      else if (el.type === 'img' || el.type === 'image') out += '[image]'
      else if (['audio', 'video', 'file'].includes(el.type)) out += `[${el.type}]`
      else if (el.type === 'quote') continue
      // a QQ face is found by its name, as the line showed it before faces became elements (SPEC §27)
      else if (el.type === 'face') out += el.attrs.name ? `[${el.attrs.name}]` : ''
      else if (el.type === 'br') out += '\n'
      else if (el.children?.length) {
        walk(el.children)
        if (el.type === 'p') out += '\n'
      }
    }
  }
  try {
    walk(h.parse(content))
  } catch {
    return content
  }
  return out
}

/** The documents of some history entries, in order. */
export function docsOf(entries: readonly Entry[], self: SelfName): RecallDoc[] {
  const out: RecallDoc[] = []
  const selfId = selfIdOf(self.bot)
  for (const e of entries) {
    if (e.type === 'fact') {
      const f = e.fact
      // reactions are the runtime's note of what people did, not something said (SPEC §23): not searched, not on history:// pages
      if (f.notice === 'reaction') continue
      out.push({ k: `f:${f.channel}:${f.id}`, id: f.id, at: f.at, who: f.user.name || f.user.id, uid: f.user.id, ch: f.channel, text: plainText(f.content) })
    } else if (e.type === 'transcript' && e.text) {
      // what a voice message said, found like the words of a text message (SPEC §20)
      const m = e.message
      const who = m.user.name || m.user.id
      out.push({ k: `v:${m.channel}:${m.id}:${e.url}`, id: m.id, at: e.at, who, uid: m.user.id, ch: m.channel, text: voiceLine(e.url, e) })
    } else if (e.type === 'step') {
      for (const send of sendsOf(e)) {
        send.messages.forEach((m, i) => out.push({
          k: `s:${e.at}:${send.callId}:${i}`, id: send.ids[i] ?? null, at: e.at, who: self.name || selfId, uid: selfId,
          ch: send.channel ?? '', text: send.literal ? m : plainText(m), self: true,
        }))
      }
    }
  }
  return out
}

interface Send {
  callId: string
  messages: string[]
  ids: string[]
  literal: boolean
  channel?: string
}

/** The delivered messages of a step's direct send_message calls. */
function sendsOf(e: Extract<Entry, { type: 'step' }>): Send[] {
  const results = new Map<string, any>()
  for (const m of e.messages) {
    if (m.role === 'tool' && Array.isArray(m.content)) for (const p of m.content) if (p.type === 'tool-result') results.set(p.toolCallId, p.output)
  }
  const out: Send[] = []
  for (const m of e.messages) {
    if (m.role !== 'assistant' || typeof m.content === 'string') continue
    for (const p of m.content) {
      if (p.type !== 'tool-call' || p.toolName !== 'send_message') continue
      const input = p.input as any
      const value = results.get(p.toolCallId)?.type === 'json' ? results.get(p.toolCallId).value : undefined
      if (!value || !Array.isArray(input?.messages)) continue
      const ids: string[] = (value.ok === true ? value.ids : value.sent) ?? []
      // a failed call delivered its first `sent.length` messages
      const delivered = value.ok === true ? input.messages.length : Math.min(ids.length, input.messages.length)
      if (!delivered) continue
      out.push({
        callId: p.toolCallId, messages: input.messages.slice(0, delivered).map(String), ids: ids.map(String),
        literal: input.mode === 'text', ...(typeof input.target?.channel === 'string' ? { channel: normalizeTarget(input.target.channel) } : {}),
      })
    }
  }
  return out
}
