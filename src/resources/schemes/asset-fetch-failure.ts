// Why an asset's bytes could not be fetched, said without its source: the platform's link never
// reaches the model (SPEC §3), not even inside an error.
import { clip } from '../../util/clip'
import { withoutUrls } from '../../util/without-urls'
import { ResourceError, type ResourceErrorCode } from '../errors'

export interface FetchFailure {
  at: string
  code: ResourceErrorCode
  /** without the source: `HTTP 400: download url has expired`, `request timeout` */
  reason: string
  status?: number
}

/** A failed fetch, without its source (the platform's link never reaches the model, SPEC §3, not even inside an error). */
export function failureOf(e: any, source: string): FetchFailure {
  const code: ResourceErrorCode = e instanceof ResourceError ? e.code : 'read_failed'
  // Koishi's HTTP error carries the response; httpGet says "<url> answered 404"
  const status: number | undefined = e?.response?.status ?? (Number(/\banswered (\d{3})\b/.exec(String(e?.message))?.[1]) || undefined)
  const body = e?.response?.data
  // QQ's expired link: HTTP 400 with {"retcode":-5503007,"retmsg":"download url has expired"} (NapCatQQ #190)
  const words = body && typeof body === 'object' && [body.retmsg, body.message, body.msg].find(w => typeof w === 'string' && w)
  const reason = status ? `HTTP ${status}${words ? ': ' + clip(withoutSource(words, source), 200) : ''}` : clip(withoutSource(String(e?.message ?? e), source))
  return { at: new Date().toISOString(), code, reason, ...(status ? { status } : {}) }
}

/** The statuses of a link that no longer works (QQ answers 400 for an expired rkey). */
const GONE = new Set([400, 403, 404, 410])

/**
 * What a read says: this fetch's reason, the one at arrival, and whether the link expired first.
 * `arrival`: this is the arrival fetch (a read that shared it is told so).
 */
export function failureMessage(id: string, now: FetchFailure, earlier: FetchFailure | undefined, arrival: boolean, maxBytes: number): string {
  if (now.code === 'too_large') return `asset://${id} is larger than ${maxBytes} bytes`
  const gone = (f?: FetchFailure) => !!f?.status && GONE.has(f.status)
  let text = `asset://${id}: its media could not be fetched: ${now.reason}`
  if (arrival) return text + (gone(now) ? ' (the platform\'s link did not work when the message arrived)' : ' (when the message arrived)')
  if (earlier) text += `; when the message arrived: ${earlier.reason}`
  if (gone(now)) {
    text += gone(earlier) ? ' (the platform\'s link did not work even when the message arrived)' : ' (the platform\'s link expired before it was fetched)'
  }
  return text
}

/** An error message with the media's source, its host and any other URL in it left out. */
export function withoutSource(message: string, source: string): string {
  let out = message.split(source).join('(its source)')
  let host = ''
  try { host = new URL(source).host } catch {}
  if (host) out = out.split(host).join('(its host)')
  return withoutUrls(out)
}
