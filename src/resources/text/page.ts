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
import { ResourceError } from '../errors'
import type { LineRange } from '../file-url'
import { checkOffset, insidePair, planPage, TEXT_BUDGET, type Budget, type ContinueUrl, type Page } from '../paging'
import { isHighSurrogate, isLowSurrogate, splitsSurrogatePair } from '../../util/surrogate'
import { CHUNK, type TextCache } from '../text-cache'
import type { FileIndex, Position } from '../line-index'
import { readFully, withFile, type Source, type TextFile } from './text-file'
import { completeLength, decode, encodedLength, type Decoded } from '../utf8'
import { lastAtOrBefore, type WholeText } from '../whole-text'

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
const NL = 10

/** What a streamed read works with: the open file, its line index, and the cache lending chunk buffers. */
interface Scan {
  source: Source
  /** the same file for the page window's one bounded read (synchronous on a local disk) */
  window: Source
  index: FileIndex
  cache: TextCache
}

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

async function scanOf(file: TextFile): Promise<Scan> {
  return { source: await file.source(), window: await file.source(true), index: await file.index(), cache: file.cache }
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

// ---------------------------------------------------------------- seeking

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

/** Byte where `target` starts (the end of the file when it has fewer lines). */
async function seekLine({ source: file, index, cache }: Scan, target: number): Promise<Position> {
  const from = index.nearest(target)
  if (from.line === target) return { ...from, column: 1 }
  if (index.totalLines !== undefined && target > index.totalLines) return { byte: index.size, line: target, column: 1 }
  return cache.withChunk(async (buffer) => {
    let line = from.line
    let lineByte = from.byte
    for (let pos = from.byte; pos < index.size;) {
      const n = await readFully(file, buffer, 0, Math.min(CHUNK, index.size - pos), pos)
      if (!n) break
      const chunk = n < buffer.length ? buffer.subarray(0, n) : buffer
      for (let nl = chunk.indexOf(NL); nl >= 0; nl = chunk.indexOf(NL, nl + 1)) {
        line++
        lineByte = pos + nl + 1
        index.lineStart(line, lineByte)
        if (line === target) {
          index.reached(line, lineByte)
          return { byte: lineByte, line, column: 1 }
        }
      }
      index.reached(line, lineByte)
      pos += n
    }
    index.totalLines ??= lineByte < index.size ? line : line - 1
    return { byte: index.size, line: target, column: 1 }
  })
}

/** Walks `offset` UTF-16 units from `start` (a cold Continue); stops early past `endLine`. */
async function seekOffset({ source: file, index, cache }: Scan, start: Position, offset: number, endLine?: number): Promise<Position> {
  return cache.withChunk(async (buffer) => {
    let at = start
    let left = offset
    while (left > 0 && at.byte < index.size && !(endLine !== undefined && at.line > endLine)) {
      const n = await readFully(file, buffer, 0, Math.min(CHUNK, index.size - at.byte), at.byte)
      const eof = at.byte + n >= index.size
      const window = decode(buffer, 0, eof ? n : completeLength(buffer, n))
      if (window.text.length <= left) {
        at = advance(at, window.text, window)
        left -= window.text.length
      } else {
        if (splitsSurrogatePair(window.text, left)) throw insidePair(offset)
        at = advance(at, window.text.slice(0, left), window)
        left = 0
      }
    }
    return at
  })
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

/** Byte just after the count-th '\n' in bytes[0, n), or -1. */
function nthNewlineEnd(bytes: Buffer, n: number, count: number): number {
  const view = bytes.subarray(0, n)
  let nl = -1
  for (let seen = 0; seen < count; seen++) {
    nl = view.indexOf(NL, nl + 1)
    if (nl < 0) return -1
  }
  return nl + 1
}

/** Reads the range's bytes from `at`, refusing more than maxBytes. */
async function readRangeBytes({ source: file, index }: Scan, at: Position, endLine: number | undefined, maxBytes: number): Promise<Buffer> {
  if (endLine === undefined && index.size - at.byte > maxBytes) throw tooLarge(maxBytes)
  const parts: Buffer[] = []
  let total = 0
  let newlinesLeft = endLine === undefined ? Infinity : endLine - at.line + 1
  for (let pos = at.byte; pos < index.size && newlinesLeft > 0;) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, index.size - pos))
    let n = await readFully(file, chunk, 0, chunk.length, pos)
    if (!n) break
    const end = newlinesLeft === Infinity ? -1 : nthNewlineEnd(chunk, n, newlinesLeft)
    if (end >= 0) n = end
    else if (newlinesLeft !== Infinity) newlinesLeft -= countByte(chunk, n, NL)
    if (end >= 0) newlinesLeft = 0
    total += n
    if (total > maxBytes) throw tooLarge(maxBytes)
    parts.push(chunk.subarray(0, n))
    pos += n
  }
  return Buffer.concat(parts)
}

function tooLarge(maxBytes: number): ResourceError {
  return new ResourceError('too_large', `the range is larger than ${maxBytes} bytes; read it in parts with a line selector such as :1-2000`)
}

function countByte(bytes: Buffer, n: number, byte: number): number {
  const view = bytes.subarray(0, n)
  let count = 0
  for (let at = view.indexOf(byte); at >= 0; at = view.indexOf(byte, at + 1)) count++
  return count
}

/** Position after `text`, which was decoded from `from.byte` on. */
function advance(from: Position, text: string, decoded: Decoded): Position {
  const byte = from.byte + encodedLength(text, decoded)
  const lastNl = text.lastIndexOf('\n')
  if (lastNl < 0) return { byte, line: from.line, column: from.column + text.length }
  return { byte, line: from.line + countNewlines(text), column: text.length - lastNl }
}

function countNewlines(text: string): number {
  let count = 0
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++
  return count
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
