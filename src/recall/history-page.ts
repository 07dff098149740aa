// history://<conversation>/<message> (SPEC §17): a page of a conversation around one message, as
// `read` shows it — who, when, what, one message after another, the asked one marked. Messages
// are numbered from 1 in the order the history holds them.
//   history://group%3A123/57        messages 47..67, 57 marked
//   history://group%3A123/40-80     messages 40..80 (at most 200)
// A page longer than the text budget is archived as an artifact and paged from there, as any
// non-file scheme's text is (SPEC §5.3).
import { ResourceError } from '../resources/errors'
import { encodeSegment } from '../resources/file-url'
import { formatTime } from '../history/render-facts'
import { quote } from '../util/clip'
import { displayName, indentContinuation, shownId } from '../util/transcript-text'
import type { RecallDoc } from './docs'

export const SCHEME = 'history'
/** messages shown on each side of the asked one */
export const AROUND = 10
export const MAX_RANGE = 200

export interface HistoryUrl {
  key: string
  /** 1-based, inclusive */
  first: number
  last: number
  /** the message the URL names (marked on the page) */
  target?: number
  view?: 'meta'
}

export function historyUrl(key: string, n: number, last?: number): string {
  return `${SCHEME}://${encodeSegment(key)}/${n}${last !== undefined ? `-${last}` : ''}`
}

export function parseHistoryUrl(url: string): HistoryUrl {
  const m = /^history:\/\/([^/?]+)\/([^?]*)(?:\?(.*))?$/i.exec(url)
  if (!m) throw new ResourceError('invalid_url', `${quote(url)} is not history://<conversation>/<message number>`)
  let key: string
  try {
    key = decodeURIComponent(m[1])
  } catch {
    throw new ResourceError('invalid_url', `${quote(url)}: the conversation is not percent-encoded correctly`)
  }
  const sel = /^(\d{1,12})(?:-(\d{1,12}))?$/.exec(m[2])
  if (!sel) throw new ResourceError('invalid_selector', `${quote(m[2])} in ${quote(url)} is not a message number N or a range A-B`)
  let view: 'meta' | undefined
  for (const p of (m[3] ?? '').split('&').filter(Boolean)) {
    if (p === 'view=meta') view = 'meta'
    else throw new ResourceError('invalid_url', `${quote(p)} in ${quote(url)}: history URLs take only view=meta`)
  }
  const a = Number(sel[1])
  if (a < 1) throw new ResourceError('invalid_selector', `messages are numbered from 1, not ${a}`)
  if (sel[2] === undefined) return { key, first: Math.max(1, a - AROUND), last: a + AROUND, target: a, ...(view ? { view } : {}) }
  const b = Number(sel[2])
  if (b < a) throw new ResourceError('invalid_selector', `${a}-${b}: the range ends before it starts`)
  if (b - a + 1 > MAX_RANGE) throw new ResourceError('invalid_selector', `${a}-${b}: at most ${MAX_RANGE} messages at once`)
  return { key, first: a, last: b, ...(view ? { view } : {}) }
}

/** One message as a line (more lines when the text has them). */
export function messageLine(d: RecallDoc, n: number, cross: boolean, marked: boolean): string {
  const where = cross && d.ch ? ` [${shownId(d.ch)}]` : ''
  // who said what (SPEC §22): the name by the name rule, ids escaped, the text's later lines indented
  const name = displayName(d.who, d.uid)
  const who = d.self ? `${name} (you)` : `${name} (${shownId(d.uid)})`
  return `${marked ? '→ ' : ''}#${n} [${formatTime(d.at)}]${where} ${who}${d.id ? ` #${shownId(d.id)}` : ''}: ${indentContinuation(d.text)}`
}

/** The page: a line that says where it is and how to go on, then the messages. */
/** `hidden`: messages left out of the page, their numbers kept (cross mode: another private chat's, SPEC §22) */
export function renderPage(u: HistoryUrl, docs: RecallDoc[], total: number, cross: boolean, hidden?: (d: RecallDoc) => boolean): string {
  const last = u.first + docs.length - 1
  const nav: string[] = []
  if (u.first > 1) nav.push(`earlier: ${historyUrl(u.key, Math.max(1, u.first - 2 * AROUND - 1), u.first - 1)}`)
  if (last < total) nav.push(`later: ${historyUrl(u.key, last + 1, Math.min(total, last + 2 * AROUND + 1))}`)
  const head = docs.length
    ? `[conversation ${u.key}: messages ${u.first} to ${last} of ${total}${nav.length ? `; ${nav.join('; ')}` : ''}]`
    : `[conversation ${u.key} has ${total} messages; none from ${u.first}]`
  const lines = docs.map((d, i) => hidden?.(d) ? '' : messageLine(d, u.first + i, cross, u.first + i === u.target))
  return [head, ...lines.filter(Boolean)].join('\n') + '\n'
}
