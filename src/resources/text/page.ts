/*
 * Pages of a text file without reading it whole (SPEC §6), through the shared planPage core.
 *
 * - Lines split on '\n' bytes (CRLF keeps its '\r' as a unit of the line). A file ending in
 *   '\n' has no extra empty last line.
 * - A page of a kept text is a string slice, with the same body, offsets and positions as the
 *   streamed page: both decode greedily and plan with planPage.
 * - totalLines/totalChars are the whole file's, given only when cheap: always for a kept text;
 *   for a larger file totalLines once a scan has reached its end.
 */
import type { LineRange } from '../file-url'
import { checkOffset, insidePair, planPage, TEXT_BUDGET, type Budget, type ContinueUrl, type Page } from '../paging'
import { isHighSurrogate, isLowSurrogate } from '../../util/surrogate'
import type { TextCache } from '../text-cache'
import type { FileIndex, Position } from '../line-index'
import { readFully, withFile, type TextFile } from './text-file'
import { completeLength, decode, type Decoded } from '../utf8'
import { lastAtOrBefore, type WholeText } from '../whole-text'
import { countNewlines, nthNewlineEnd } from './newlines'
import { readRangeBytes } from './range-bytes'
import { advance, scanOf, seekLine, seekOffset, type Scan } from './seek'

export interface FilePageRequest {
  path: string
  /** line indexes and kept texts; a `file` brings its own (the one it was opened with) */
  cache: TextCache
  range?: LineRange
  offset?: number
  continueUrl: ContinueUrl
  budget?: Budget
  /** the file already opened by the caller (file-read shares it with the sniff) */
  file?: TextFile
}

export interface FilePageResult extends Page {
  /** where the body starts: offset inside the range, 1-based line and UTF-16 column in the file */
  source: { offset: number, line: number, column: number }
  range: { startLine: number, endLine?: number, totalLines?: number, totalChars?: number }
}

export interface FileRangeRequest {
  path: string
  /** as in FilePageRequest */
  cache: TextCache
  range?: LineRange
  /** too_large when the range holds more bytes of the file (32 MiB by default) */
  maxBytes?: number
  file?: TextFile
}

const DEFAULT_MAX_BYTES = 32 << 20

export async function readFilePage(req: FilePageRequest): Promise<FilePageResult> {
  const budget = req.budget ?? TEXT_BUDGET
  const range = req.range ?? { start: 1 }
  const offset = req.offset ?? 0
  checkOffset(offset)
  return withFile(req.path, req.file, req.cache, async (file) => {
    const { limits } = file.cache
    const keep = file.fits(limits.eager) || (offset > 0 && file.fits(limits.onContinue))
    const whole = file.cached() ?? (keep ? await file.load() : undefined)
    if (whole) return pageOfText(whole, range, offset, req.continueUrl, budget)
    return streamedPage(await scanOf(file), range, offset, req.continueUrl, budget)
  })
}

async function streamedPage(scan: Scan, range: LineRange, offset: number, continueUrl: ContinueUrl, budget: Budget): Promise<FilePageResult> {
  const { index, cache } = scan
  const at = await locate(scan, range, offset)
  // a spare chunk buffer: a fresh 90 KB one per page would fault its pages in again
  return cache.withChunk(async (buffer) => {
    const window = await readWindow(scan, at, range.end, budget, buffer)
    const page = planPage(window.text, window.atEnd, offset, continueUrl, budget)
    if (page.nextOffset !== undefined) index.remember(range.start, page.nextOffset, advance(at, page.body, window))
    if (window.reachedEof) index.totalLines ??= linesBefore(at, window.text)
    if (window.reachedEof && at.byte === 0) index.totalChars ??= window.text.length
    cache.grown(index)
    return {
      ...page,
      source: { offset, line: at.line, column: at.column },
      range: describeRange(range, index, window.reachedRangeEnd),
    }
  })
}

/** The whole range as text; too_large past maxBytes of the file. */
export async function readFileRangeText(req: FileRangeRequest): Promise<string> {
  const lines = req.range ?? { start: 1 }
  const maxBytes = req.maxBytes ?? DEFAULT_MAX_BYTES
  if (isEmpty(lines)) return ''
  return withFile(req.path, req.file, req.cache, async (file) => {
    // a file no larger than maxBytes cannot hold a range larger than that
    const whole = file.size <= maxBytes ? file.cached() ?? (file.fits(file.cache.limits.onContinue) ? await file.load() : undefined) : undefined
    if (whole) return whole.slice(whole.lineStart(lines.start), lines.end === undefined ? undefined : whole.lineStart(lines.end + 1))
    const scan = await scanOf(file)
    const at = await seekLine(scan, lines.start)
    const bytes = await readRangeBytes(scan, at, lines.end, maxBytes)
    scan.cache.grown(scan.index)
    return decode(bytes, 0, bytes.length).text
  })
}

// ---------------------------------------------------------------- kept text

/** The streamed page's twin: the same window, positions and errors, taken from the kept text. */
function pageOfText(whole: WholeText, range: LineRange, offset: number, continueUrl: ContinueUrl, budget: Budget): FilePageResult {
  const { length, lineStarts, totalLines } = whole
  const empty = isEmpty(range)
  const start = empty ? length : whole.lineStart(range.start)
  const end = empty || range.end === undefined ? length : whole.lineStart(range.end + 1)
  // like seekOffset: the walk runs to the end of the file, not of the range
  const at = Math.min(start + offset, length)
  if (at > 0 && at < length && isHighSurrogate(whole.charCodeAt(at - 1)) && isLowSurrogate(whole.charCodeAt(at))) throw insidePair(offset)
  let line = range.start
  let column = 1
  if (at > start) {
    const k = lastAtOrBefore(lineStarts, at)
    line = k + 1
    column = at - lineStarts[k] + 1
  }
  const window = whole.slice(at, Math.min(end, at + budget.units + 1))
  const page = planPage(window, at + window.length >= end, offset, continueUrl, budget)
  return {
    ...page,
    source: { offset, line, column },
    range: { startLine: range.start, endLine: empty ? range.end : Math.min(range.end ?? Infinity, totalLines), totalLines, totalChars: length },
  }
}

// ---------------------------------------------------------------- where a page starts (seek.ts walks the file)

function isEmpty(range: LineRange): boolean {
  return range.end !== undefined && range.end < range.start
}

/** Position of `offset` units into the range, remembered from an earlier page when possible. */
async function locate(scan: Scan, range: LineRange, offset: number): Promise<Position> {
  const { index } = scan
  if (isEmpty(range)) return { byte: index.size, line: range.start, column: 1 }
  const known = offset > 0 && index.recall(range.start, offset)
  if (known) return known
  const start = await seekLine(scan, range.start)
  return offset > 0 ? seekOffset(scan, start, offset, range.end) : start
}

// ---------------------------------------------------------------- windows

interface Window extends Decoded {
  atEnd: boolean
  reachedEof: boolean
  reachedRangeEnd: boolean
}

/** The text from `at`: budget.units + 1 units at least, unless the range or file ends first. */
async function readWindow({ window: file, index }: Scan, at: Position, endLine: number | undefined, budget: Budget, spare: Buffer): Promise<Window> {
  if (endLine !== undefined && at.line > endLine) return { ...decode(Buffer.alloc(0), 0, 0), atEnd: true, reachedEof: false, reachedRangeEnd: true }
  const want = Math.min((budget.units + 1) * 3 + 3, index.size - at.byte)
  const bytes = want <= spare.length ? spare : Buffer.allocUnsafe(want)
  const n = await readFully(file, bytes, 0, want, at.byte)
  const rangeEnd = endLine === undefined ? -1 : nthNewlineEnd(bytes, n, endLine - at.line + 1)
  const reachedEof = rangeEnd < 0 && at.byte + n >= index.size
  const end = rangeEnd >= 0 ? rangeEnd : reachedEof ? n : completeLength(bytes, n)
  return { ...decode(bytes, 0, end), atEnd: rangeEnd >= 0 || reachedEof, reachedEof, reachedRangeEnd: rangeEnd >= 0 }
}

/** Lines in the file when `text` runs from `at` to its end. */
function linesBefore(at: Position, text: string): number {
  const partial = text ? !text.endsWith('\n') : at.column > 1
  return at.line - 1 + countNewlines(text) + (partial ? 1 : 0)
}

function describeRange(range: LineRange, index: FileIndex, reachedRangeEnd: boolean): FilePageResult['range'] {
  const out: FilePageResult['range'] = { startLine: range.start }
  if (isEmpty(range)) out.endLine = range.end
  else if (index.totalLines !== undefined) out.endLine = Math.min(range.end ?? Infinity, index.totalLines)
  else if (reachedRangeEnd) out.endLine = range.end
  if (index.totalLines !== undefined) out.totalLines = index.totalLines
  if (index.totalChars !== undefined) out.totalChars = index.totalChars
  return out
}
