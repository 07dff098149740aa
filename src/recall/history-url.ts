// history:// URLs (SPEC §17, §27 "One number per message"): a conversation and the message a page is
// around, named by the platform id its line shows (`#id`, what `<quote id>` takes).
//   history://group%3A123/88123        the page around message #88123, marked
//   history://group%3A123              the latest messages
// The id is the rest of the URL, `/` included, percent-decoded; `%uXXXX` and `%XX` of a character
// below 256 (how a line escapes an id, util/transcript-text.ts) decode too. Only `?view=meta` may end it.
import { ResourceError } from '../resources/errors'
import { encodeSegment } from '../resources/file-url'
import { clip, quote } from '../util/clip'

export const SCHEME = 'history'

export interface HistoryUrl {
  key: string
  /** the message the page is around; absent: the latest messages */
  id?: string
  view?: 'meta'
}

export function historyUrl(key: string, id?: string): string {
  return `${SCHEME}://${encodeSegment(key)}${id === undefined ? '' : `/${encodeSegment(id)}`}`
}

const FORM = /^history:\/\/([^/?]+)(?:\/(.*?))?(\?view=meta)?$/is

export function parseHistoryUrl(url: string): HistoryUrl {
  const m = FORM.exec(url)
  if (!m) throw new ResourceError('invalid_url', `${quote(url)} is not ${SCHEME}://<conversation>/<message id> (or ${SCHEME}://<conversation>)`)
  let key: string
  try {
    key = decodeURIComponent(m[1])
  } catch {
    throw new ResourceError('invalid_url', `${quote(url)}: the conversation is not percent-encoded correctly`)
  }
  const view = m[3] ? { view: 'meta' as const } : {}
  return m[2] ? { key, id: decodeId(m[2]), ...view } : { key, ...view }
}

/** Percent-decoded as a URL segment; else as a line escapes an id (`%uXXXX`, `%XX` below 256). */
function decodeId(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s.replace(/%u([0-9a-f]{4})|%([0-9a-f]{2})/gi, (_, u, x) => String.fromCharCode(parseInt(u ?? x, 16)))
  }
}

/** No message of the conversation has the URL's id: the URL of before (a number, a range) or a wrong id. */
export function noSuchMessage(u: HistoryUrl, url: string): ResourceError {
  const home = historyUrl(u.key)
  const form = `a ${SCHEME}:// URL names a message by the #id its line shows: ${home}/<message id> (${home} alone: the latest messages)`
  if (/^\d+-\d+$/.test(u.id ?? '')) return new ResourceError('invalid_url', `${quote(url)}: ranges of messages are no longer read; ${form}`)
  return new ResourceError('not_found', `conversation ${clip(u.key)} has no message #${clip(u.id ?? '')}; ${form}`)
}
