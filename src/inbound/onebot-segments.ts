// OneBot v11 messages (history pages and forwards the edge fetches, a forward's `content` NapCat
// puts in the element) decoded into elements the way koishi-plugin-adapter-onebot 6.9.4 decodes a
// live message (lib/index.js adaptMessage: `url` becomes `src`, `record` an `audio`, `reply` a
// `quote`, a face named from `qface`), so pulled and forwarded messages render like live ones.
import h from '@satorijs/element'
import * as qface from 'qface'

/** One segment of NapCat's `message_format: 'array'`. */
export interface OneBotSegment {
  type: string
  data?: Record<string, unknown>
}

/** A message as get_group_msg_history, get_friend_msg_history and get_forward_msg return it. */
export interface OneBotMessage {
  message_id?: number | string
  message_seq?: number | string
  time?: number
  user_id?: number | string
  group_id?: number | string
  sender?: { user_id?: number | string; nickname?: string; card?: string }
  message?: OneBotSegment[] | string
  /** get_forward_msg of some implementations: the segments under `content` */
  content?: OneBotSegment[] | string
}

const MEDIA: Record<string, string> = { image: 'img', record: 'audio', video: 'video', file: 'file' }

/** The message's elements; a string message (CQ code) or a malformed segment becomes text, never a throw. */
export function decodeSegments(message: unknown): h[] {
  if (typeof message === 'string') return h.parse(message)
  if (!Array.isArray(message)) return []
  const out: h[] = []
  for (const s of message) {
    if (!s || typeof s !== 'object' || typeof (s as OneBotSegment).type !== 'string') continue
    const { type, data: raw } = s as OneBotSegment
    const data: Record<string, any> = raw && typeof raw === 'object' ? { ...raw } : {}
    if (type === 'text') out.push(h.text(String(data.text ?? '')))
    else if (type === 'at') out.push(data.qq === 'all' ? h('at', { type: 'all' }) : h.at(String(data.qq ?? ''), data.name ? { name: data.name } : {}))
    else if (type === 'reply') out.push(h('quote', { id: String(data.id ?? '') }))
    else if (type === 'face') out.push(h('face', { id: String(data.id ?? ''), name: qface.get(String(data.id ?? ''))?.QDes.slice(1), platform: 'onebot' }))
    else if (MEDIA[type]) {
      const { url, ...rest } = data
      out.push(h(MEDIA[type], { src: url || data.file, ...rest }))
    } else out.push(h(type, data))
  }
  return out
}

/** The author's name and id of a fetched message. */
export function authorOf(m: OneBotMessage): { id: string; name: string } {
  const id = String(m.sender?.user_id ?? m.user_id ?? '')
  return { id, name: m.sender?.card || m.sender?.nickname || id }
}
