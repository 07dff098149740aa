/*
 * File-scheme URL grammar (SPEC §5.2): <scheme>://<path>[<selector>...][?<query>]
 *
 * Decisions where the SPEC is silent:
 * - The query starts at the first '?'; the path ends at the first raw ':' before it, and
 *   everything from there to the query is selectors. A ':' inside a name must be '%3A'.
 * - One leading '/' (workspace:///srv/x) and one trailing '/' (local://notes/) are not
 *   segments; `rooted` remembers the leading one so formatting gives the URL back. Any other
 *   empty segment ('a//b') is invalid_url.
 * - A segment that decodes to '/', '\', NUL, '.' or '..' is invalid_url (raw or encoded):
 *   '%2F' can never act as a separator, so it is refused rather than kept in a name.
 * - '#' is an ordinary name character (file URLs have no fragment).
 * - Selector numbers are plain decimal digits (leading zeros accepted, normalised away) and
 *   must be safe integers; anything else is invalid_selector.
 * - Empty query pieces ('?', '&&') are ignored; 'offset=0' is accepted and not written back.
 * - composeSelectors represents an empty range as end < start (end = start - 1 when the
 *   empty range comes from a selector past the previous range's end).
 * - splitQuestion: the value is percent-decoded when that succeeds, else kept raw; '+' stays
 *   '+'; a bare 'question' is ''; two question params are invalid_url.
 * - Errors quote the URL and the offending piece with util/clip's quote: at most 200 units of
 *   each (SPEC §10), so a 100,000-character URL gives a short error.
 */
import { quote } from '../util/clip'
import { ResourceError } from './errors'

export type Selector =
  | { kind: 'from', start: number }
  | { kind: 'range', start: number, end: number }
  | { kind: 'count', start: number, count: number }

export type FileView = 'meta' | 'original'

export interface FileUrl {
  /** lower-cased */
  scheme: string
  /** percent-decoded path segments; [] is the root */
  segments: string[]
  selectors: Selector[]
  view?: FileView
  /** UTF-16 units already consumed inside the requested range */
  offset?: number
  /** the path was written with a leading '/' (workspace:///srv/x) */
  rooted?: boolean
  /** the input */
  raw: string
}

/** 1-based inclusive; end undefined = to the end of the text; end < start = empty. */
export interface LineRange {
  start: number
  end?: number
}

const NAME = '[a-z][a-z0-9+.-]*'
/** a scheme's name (RFC 3986), lower-case as registered */
export const SCHEME_NAME = new RegExp(`^${NAME}$`)
const SCHEME = new RegExp(`^(${NAME}):\\/\\/`, 'i')
const SELECTOR = /^(\d+)(?:([-+])(\d+))?$/
const VIEWS: readonly string[] = ['meta', 'original']
const COLON_HINT = 'a ":" inside a name must be written %3A'

function invalid(message: string): never {
  throw new ResourceError('invalid_url', message)
}

/** The scheme of a `<scheme>://…` URL, lower-cased; undefined for anything else (the one test of a URL's scheme). */
export function schemeOf(url: string): string | undefined {
  return SCHEME.exec(url)?.[1].toLowerCase()
}

export function parseFileUrl(url: string): FileUrl {
  const match = SCHEME.exec(url)
  if (!match) invalid(`${quote(url)} is not <scheme>://<path>`)
  const rest = url.slice(match[0].length)
  const queryAt = rest.indexOf('?')
  const beforeQuery = queryAt < 0 ? rest : rest.slice(0, queryAt)
  const colonAt = beforeQuery.indexOf(':')
  const pathText = colonAt < 0 ? beforeQuery : beforeQuery.slice(0, colonAt)
  const result: FileUrl = {
    scheme: match[1].toLowerCase(),
    segments: [],
    selectors: colonAt < 0 ? [] : parseSelectors(beforeQuery.slice(colonAt), url),
    raw: url,
  }
  Object.assign(result, parsePath(pathText, url))
  if (queryAt >= 0) Object.assign(result, parseQuery(rest.slice(queryAt + 1), url))
  return result
}

function parsePath(text: string, url: string): Pick<FileUrl, 'segments' | 'rooted'> {
  const rooted = text.startsWith('/')
  let body = rooted ? text.slice(1) : text
  if (body.endsWith('/')) body = body.slice(0, -1)
  if (!body) return { segments: [], rooted }
  return { segments: body.split('/').map((s) => decodeSegment(s, url)), rooted }
}

function decodeSegment(segment: string, url: string): string {
  if (!segment) invalid(`empty path segment in ${quote(url)}`)
  const name = percentDecode(segment, url)
  if (name === '.' || name === '..') invalid(`path segment ${quote(segment)} is not allowed in ${quote(url)}`)
  if (name.includes('/')) invalid(`path segment ${quote(segment)} encodes "/" (%2F never separates) in ${quote(url)}`)
  if (name.includes('\\')) invalid(`path segment ${quote(segment)} holds a backslash in ${quote(url)}`)
  if (name.includes('\0')) invalid(`path segment ${quote(segment)} holds NUL in ${quote(url)}`)
  return name
}

function percentDecode(text: string, url: string): string {
  if (/%(?![0-9a-f]{2})/i.test(text)) invalid(`malformed percent escape in ${quote(text)} of ${quote(url)}`)
  try {
    return decodeURIComponent(text)
  } catch {
    invalid(`percent escapes in ${quote(text)} of ${quote(url)} are not valid UTF-8`)
  }
}

function parseSelectors(text: string, url: string): Selector[] {
  return text.slice(1).split(':').map((piece) => parseSelector(piece, url))
}

function badSelector(piece: string, url: string, why: string): never {
  throw new ResourceError('invalid_selector', `selector ${quote(':' + piece)} in ${quote(url)} ${why}`)
}

function parseSelector(piece: string, url: string): Selector {
  const match = SELECTOR.exec(piece)
  if (!match) badSelector(piece, url, `is not :N, :A-B or :A+C (${COLON_HINT})`)
  const [a, op, b] = [toInt(match[1]), match[2], match[3] === undefined ? undefined : toInt(match[3])]
  if (a === undefined || (match[3] !== undefined && b === undefined)) badSelector(piece, url, 'has a number too large')
  if (a < 1) badSelector(piece, url, 'starts before line 1')
  if (!op) return { kind: 'from', start: a }
  if (op === '-') {
    if (b < a) badSelector(piece, url, 'ends before it starts')
    return { kind: 'range', start: a, end: b }
  }
  if (b < 1) badSelector(piece, url, 'counts fewer than 1 line')
  return { kind: 'count', start: a, count: b }
}

function toInt(digits: string): number | undefined {
  const n = Number(digits)
  return Number.isSafeInteger(n) ? n : undefined
}

function parseQuery(text: string, url: string): Pick<FileUrl, 'view' | 'offset'> {
  const out: Pick<FileUrl, 'view' | 'offset'> = {}
  const seen = new Set<string>()
  for (const piece of text.split('&')) {
    if (!piece) continue
    const eq = piece.indexOf('=')
    const name = percentDecode(eq < 0 ? piece : piece.slice(0, eq), url)
    const value = eq < 0 ? undefined : percentDecode(piece.slice(eq + 1), url)
    if (seen.has(name)) invalid(`query parameter ${quote(name)} is repeated in ${quote(url)}`)
    seen.add(name)
    if (name === 'view') out.view = parseView(value, url)
    else if (name === 'offset') out.offset = parseOffset(value, url)
    else invalid(`unknown query parameter ${quote(name)} in ${quote(url)} (allowed: view, offset${name === 'question' ? '; question is taken by read' : ''})`)
  }
  return out
}

function parseView(value: string | undefined, url: string): FileView {
  if (VIEWS.includes(value)) return value as FileView
  throw new ResourceError('unsupported_view', `view ${quote(value ?? '')} in ${quote(url)} is not one of: ${VIEWS.join(', ')}`)
}

function parseOffset(value: string | undefined, url: string): number {
  const n = value !== undefined && /^\d+$/.test(value) ? toInt(value) : undefined
  if (n === undefined) invalid(`offset ${quote(value ?? '')} in ${quote(url)} is not a non-negative integer`)
  return n
}

/** Escapes what would change the meaning of a name: '%', ':', '?', '/', '\', controls. */
export function encodeSegment(name: string): string {
  return name.replace(/[%:?/\\\x00-\x1f\x7f]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'))
}

function formatSelector(s: Selector): string {
  if (s.kind === 'from') return `:${s.start}`
  if (s.kind === 'range') return `:${s.start}-${s.end}`
  return `:${s.start}+${s.count}`
}

export function formatFileUrl(u: FileUrl): string {
  const params: string[] = []
  if (u.view) params.push(`view=${u.view}`)
  if (u.offset > 0) params.push(`offset=${u.offset}`)
  const path = (u.rooted ? '/' : '') + u.segments.map(encodeSegment).join('/')
  const query = params.length ? '?' + params.join('&') : ''
  return `${u.scheme}://${path}${u.selectors.map(formatSelector).join('')}${query}`
}

/** The Continue URL: the same resource, selectors and view, plus offset=K. */
export function withOffset(url: FileUrl, offset: number): string {
  return formatFileUrl({ ...url, offset })
}

/** Each selector counts lines inside the previous range; undefined when there is none. */
export function composeSelectors(selectors: Selector[]): LineRange | undefined {
  if (!selectors.length) return undefined
  let range: LineRange = { start: 1 }
  for (const selector of selectors) range = narrow(range, selector)
  return range
}

function narrow(prev: LineRange, s: Selector): LineRange {
  const start = prev.start + s.start - 1
  const own = s.kind === 'range' ? prev.start + s.end - 1 : s.kind === 'count' ? start + s.count - 1 : undefined
  const end = own === undefined ? prev.end : prev.end === undefined ? own : Math.min(own, prev.end)
  if (end !== undefined && end < start) return { start, end: start - 1 }
  return end === undefined ? { start } : { start, end }
}

/** Takes `question` out of any URL (SPEC §4.2); the other params stay in place. */
export function splitQuestion(url: string): { url: string, question?: string } {
  const queryAt = url.indexOf('?')
  if (queryAt < 0) return { url }
  const params = url.slice(queryAt + 1).split('&')
  const found = params.map((p, i) => (p === 'question' || p.startsWith('question=') ? i : -1)).filter((i) => i >= 0)
  if (!found.length) return { url }
  if (found.length > 1) invalid(`question is given ${found.length} times in ${quote(url)}`)
  const raw = params[found[0]].slice('question='.length)
  const rest = params.filter((_, i) => i !== found[0])
  const query = rest.some(Boolean) ? '?' + rest.join('&') : ''
  return { url: url.slice(0, queryAt) + query, question: decodeLenient(raw) }
}

function decodeLenient(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
