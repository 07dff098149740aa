// OneBot v11 message segments as NapCat reports them (and LLOneBot's `mface`), plus CQ codes.
// Follows NapCatQQ's source: packages/napcat-onebot/types/message.ts (segment schemas) and
// packages/napcat-onebot/api/msg.ts (`rawToOb11Converters`: what each received element becomes);
// LLOneBot's src/onebot11/entities.ts for `mface`; the OneBot v11 spec, message/segment.md and
// message/string.md, for CQ codes and their escaping.

export interface Segment {
  type: string
  data: Record<string, any>
}

/** A market face's gif as NapCat and LLOneBot build it from its emoji id (api/msg.ts, entities.ts). */
export const marketFaceUrl = (emojiId: string) => `https://gxh.vip.qq.com/club/item/parcel/item/${emojiId.slice(0, 2)}/${emojiId}/raw300.gif`

/** Builders for received segments, each shaped as NapCat's converter for that element kind emits it. */
export const seg = {
  text: (text: string): Segment => ({ type: 'text', data: { text } }),
  /** NapCat reports `qq` only (the name is commented out in its textElement converter) */
  at: (qq: number | string | 'all'): Segment => ({ type: 'at', data: { qq: String(qq) } }),
  /** faceElement: `id` as a string and `raw`, the NT element (here only its index and type); `resultId`/`chainCount` only on dice-like faces */
  face: (id: number | string): Segment => ({ type: 'face', data: { id: String(id), raw: { faceIndex: Number(id), faceType: 1 } } }),
  /** picElement: `file` the file name, `url` the (rkey) link, `sub_type` 0 for a picture, `summary` '' */
  image: (o: { file?: string; url?: string; summary?: string; sub_type?: number; file_size?: string } = {}): Segment => ({
    type: 'image',
    data: {
      summary: o.summary ?? '', file: o.file ?? 'A1B2C3D4.png', sub_type: o.sub_type ?? 0,
      url: o.url ?? 'https://multimedia.nt.qq.com.cn/download?appid=1407&fileid=EhQ&rkey=CAQSKAB', file_size: o.file_size ?? '20480',
    },
  }),
  /** a picture sent as a sticker: picElement with `picSubType` 1, `summary` '[动画表情]' by default */
  sticker: (o: { file?: string; url?: string; summary?: string } = {}): Segment =>
    seg.image({ file: 'E5F6A7B8.gif', ...o, sub_type: 1, summary: o.summary ?? '[动画表情]' }),
  /** NapCat's market face (marketFaceElement): an `image` with the face's name as `summary` and its gif as `url` */
  marketFace: (o: { emoji_id: string; emoji_package_id: number; key: string; summary: string }): Segment => ({
    type: 'image',
    data: {
      summary: o.summary, file: `${o.emoji_id.slice(0, 2)}-${o.emoji_id}.gif`, url: marketFaceUrl(o.emoji_id),
      key: o.key, emoji_id: o.emoji_id, emoji_package_id: o.emoji_package_id,
    },
  }),
  /** LLOneBot's (and Lagrange's) market face: an `mface` segment carrying the gif's `url` */
  mface: (o: { emoji_id: string; emoji_package_id: number; key: string; summary: string; url?: string }): Segment => ({
    type: 'mface',
    data: { summary: o.summary, url: o.url ?? marketFaceUrl(o.emoji_id), emoji_id: o.emoji_id, emoji_package_id: o.emoji_package_id, key: o.key },
  }),
  /** replyElement: the quoted message's short id as a string */
  reply: (id: number | string): Segment => ({ type: 'reply', data: { id: String(id) } }),
  /** pttElement: `file` an encoded file id, `path`, `url`, `file_size`; no duration */
  record: (o: { file?: string; path?: string; url?: string; file_size?: string } = {}): Segment => ({
    type: 'record',
    data: {
      file: o.file ?? 'b1c2d3e4f5.amr', path: o.path ?? '/root/.config/QQ/nt_qq/nt_data/Ptt/2026-11/Ori/b1c2d3e4f5.amr',
      url: o.url ?? 'https://grouptalk.c2c.qq.com/?ver=2&rkey=3062', file_size: o.file_size ?? '4096',
    },
  }),
  /** videoElement: `file` an encoded file id, `url`, `file_size` */
  video: (o: { file?: string; url?: string; file_size?: string } = {}): Segment => ({
    type: 'video',
    data: { file: o.file ?? 'c3d4e5f6.mp4', url: o.url ?? 'https://multimedia.nt.qq.com.cn/download?appid=1415&rkey=CAI', file_size: o.file_size ?? '1048576' },
  }),
  /** fileElement: `file` the file's name, `file_id`, `file_size`, and `url` when NapCat could fetch one */
  file: (o: { file?: string; file_id?: string; file_size?: string; url?: string } = {}): Segment => ({
    type: 'file',
    data: {
      file: o.file ?? 'report.pdf', file_id: o.file_id ?? '/a1b2c3d4-e5f6', file_size: o.file_size ?? '1258291',
      ...(o.url !== undefined ? { url: o.url } : {}),
    },
  }),
  /** multiForwardMsgElement: `id` the forward's message id; `content` its messages when NapCat parsed them */
  forward: (id: string, content?: any[]): Segment => ({ type: 'forward', data: { id, ...(content ? { content } : {}) } }),
  /** arkElement: `data` the card's JSON, as a string */
  json: (data: string | object): Segment => ({ type: 'json', data: { data: typeof data === 'string' ? data : JSON.stringify(data) } }),
  poke: (type: string, id: string): Segment => ({ type: 'poke', data: { type, id } }),
  dice: (result: number): Segment => ({ type: 'dice', data: { result } }),
}

/** A share card as QQ sends it (an ark `com.tencent.structmsg`), for `seg.json`. */
export function shareCard(o: { title: string; desc: string; url: string }) {
  return {
    app: 'com.tencent.structmsg', desc: '新闻', view: 'news', ver: '0.0.0.1', prompt: `[分享]${o.title}`,
    meta: { news: { title: o.title, desc: o.desc, jumpUrl: o.url, preview: 'https://example.invalid/p.png', tag: '哔哩哔哩' } },
    config: { ctime: 1764400000, forward: 1, type: 'normal' },
  }
}

// OneBot v11 message/string.md: & [ ] are escaped everywhere, and , too inside a CQ code's values
const escape = (s: string, inCode: boolean) => {
  const out = s.replace(/&/g, '&amp;').replace(/\[/g, '&#91;').replace(/\]/g, '&#93;')
  return inCode ? out.replace(/,/g, '&#44;') : out
}
const unescape = (s: string) => s.replace(/&#44;/g, ',').replace(/&#91;/g, '[').replace(/&#93;/g, ']').replace(/&amp;/g, '&')

/** Segments as a CQ string (NapCat's `raw_message`); object values are written as JSON. */
export function toCQ(segments: Segment[]): string {
  return segments.map(s => {
    if (s.type === 'text') return escape(String(s.data.text ?? ''), false)
    const attrs = Object.entries(s.data)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => `,${k}=${escape(typeof v === 'object' ? JSON.stringify(v) : String(v), true)}`)
    return `[CQ:${s.type}${attrs.join('')}]`
  }).join('')
}

/** A CQ string as segments (the string form of a `message` field). */
export function fromCQ(source: string): Segment[] {
  const out: Segment[] = []
  const pattern = /\[CQ:([\w.-]+)((?:,[\w.-]+=[^,\]]*)*)\]/g
  let last = 0
  for (let m = pattern.exec(source); m; m = pattern.exec(source)) {
    if (m.index > last) out.push(seg.text(unescape(source.slice(last, m.index))))
    const data: Record<string, string> = {}
    for (const pair of m[2].slice(1).split(',').filter(Boolean)) {
      const i = pair.indexOf('=')
      data[pair.slice(0, i)] = unescape(pair.slice(i + 1))
    }
    out.push({ type: m[1], data })
    last = m.index + m[0].length
  }
  if (last < source.length) out.push(seg.text(unescape(source.slice(last))))
  return out
}

/** A `message` field in any of its forms (array, one segment, CQ string) as an array of segments. */
export function normalizeMessage(message: unknown): Segment[] {
  if (typeof message === 'string') return fromCQ(message)
  if (Array.isArray(message)) return message.map(s => (typeof s === 'string' ? seg.text(s) : s as Segment))
  if (message && typeof message === 'object' && 'type' in message) return [message as Segment]
  throw new Error('message must be an array of segments, a segment or a CQ string')
}

/** The text of the `text` segments, joined. */
export const plainText = (segments: Segment[]) => segments.filter(s => s.type === 'text').map(s => s.data.text).join('')
