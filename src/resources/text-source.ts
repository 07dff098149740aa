/*
 * Text files paged without reading them whole (SPEC §6), through the shared planPage core.
 *
 * - Lines split on '\n' bytes (CRLF keeps its '\r' as a unit of the line). A file ending in
 *   '\n' has no extra empty last line.
 * - UTF-8 is decoded greedily: a valid sequence gives its character, any other byte gives one
 *   U+FFFD. That rule restarts cleanly at every byte position it reaches, so a page can begin
 *   at a remembered byte position and still produce exactly the text a whole read would.
 * - Per file (path, size, mtimeMs) an LRU entry keeps a sparse line index (the byte offset of
 *   every STRIDE-th line, built while scanning) and the positions of Continue offsets, so the
 *   next page seeks straight to its byte.
 * - totalLines/totalChars are the whole file's, given only when cheap: files up to 256 KiB are
 *   counted on first sight; larger ones get totalLines once a scan has reached their end.
 */
import { open, type FileHandle } from 'node:fs/promises'
import { LRUCache } from 'lru-cache'
import { ResourceError } from './errors'
import type { LineRange } from './file-url'
import { checkOffset, countLines, insidePair, planPage, splitsSurrogatePair, TEXT_BUDGET, type Budget, type ContinueUrl, type Page } from '../exit/paging'

export interface FilePageRequest {
  path: string
  range?: LineRange
  offset?: number
  continueUrl: ContinueUrl
  budget?: Budget
}

export interface FilePageResult extends Page {
  /** where the body starts: offset inside the range, 1-based line and UTF-16 column in the file */
  source: { offset: number, line: number, column: number }
  range: { startLine: number, endLine?: number, totalLines?: number, totalChars?: number }
}

const STRIDE = 1024
const CHUNK = 1 << 20
const SMALL_FILE = 256 << 10
const MAX_POSITIONS = 512
const DEFAULT_MAX_BYTES = 32 << 20
const NL = 10

interface Position {
  byte: number
  line: number
  column: number
}

class FileIndex {
  /** marks[i] = byte where line i * STRIDE + 1 starts */
  marks: number[] = [0]
  frontier = { line: 1, byte: 0 }
  totalLines?: number
  totalChars?: number
  private positions = new Map<string, Position>()

  constructor(readonly size: number) {}

  get weight(): number {
    return 256 + this.marks.length * 8 + this.positions.size * 64
  }

  lineStart(line: number, byte: number): void {
    if ((line - 1) % STRIDE === 0 && (line - 1) / STRIDE === this.marks.length) this.marks.push(byte)
  }

  reached(line: number, byte: number): void {
    if (line > this.frontier.line) this.frontier = { line, byte }
  }

  nearest(line: number): { line: number, byte: number } {
    const i = Math.min(Math.floor((line - 1) / STRIDE), this.marks.length - 1)
    const mark = { line: i * STRIDE + 1, byte: this.marks[i] }
    return this.frontier.line <= line && this.frontier.line > mark.line ? this.frontier : mark
  }

  remember(startLine: number, offset: number, position: Position): void {
    if (this.positions.size >= MAX_POSITIONS) this.positions.delete(this.positions.keys().next().value)
    this.positions.set(`${startLine}:${offset}`, position)
  }

  recall(startLine: number, offset: number): Position | undefined {
    return this.positions.get(`${startLine}:${offset}`)
  }
}

const indexes = new LRUCache<string, FileIndex>({ max: 256, maxSize: 64 << 20, sizeCalculation: (entry) => entry.weight })

/** Forgets every file index (tests, or after a bulk change of files). */
export function clearTextSourceCache(): void {
  indexes.clear()
}

export async function readFilePage(req: FilePageRequest): Promise<FilePageResult> {
  const budget = req.budget ?? TEXT_BUDGET
  const range = req.range ?? { start: 1 }
  const offset = req.offset ?? 0
  checkOffset(offset)
  return withFile(req.path, async (file, index) => {
    const at = await locate(file, index, range, offset)
    const window = await readWindow(file, index, at, range.end, budget)
    const page = planPage(window.text, window.atEnd, offset, req.continueUrl, budget)
    if (page.nextOffset !== undefined) index.remember(range.start, page.nextOffset, advance(at, page.body, window))
    if (window.reachedEof) index.totalLines ??= linesBefore(at, window.text)
    if (window.reachedEof && at.byte === 0) index.totalChars ??= window.text.length
    return {
      ...page,
      source: { offset, line: at.line, column: at.column },
      range: describeRange(range, index, window.reachedRangeEnd),
    }
  })
}

/** The whole range as text; too_large past maxBytes of the file. */
export async function readFileRangeText(path: string, range?: LineRange, maxBytes = DEFAULT_MAX_BYTES): Promise<string> {
  const lines = range ?? { start: 1 }
  if (isEmpty(lines)) return ''
  return withFile(path, async (file, index) => {
    const at = await seekLine(file, index, lines.start)
    const bytes = await readRangeBytes(file, index, at, lines.end, maxBytes)
    return decode(bytes, 0, bytes.length).text
  })
}

/** Binary when the first 8 KiB hold NUL or more than 10% invalid UTF-8 / stray controls. */
export function looksBinary(sample: Uint8Array): boolean {
  const end = Math.min(sample.length, 8192)
  let odd = 0
  for (let i = 0; i < end;) {
    const b = sample[i]
    if (b === 0) return true
    const length = b < 0x80 ? 1 : sequenceLength(sample, i, end)
    if (length === 0 && isIncompleteTail(sample, i, end)) break
    if (length === 0 || (b < 0x20 && !TEXT_CONTROLS.has(b)) || b === 0x7f) odd++
    i += length || 1
  }
  return odd * 10 > end
}

const TEXT_CONTROLS = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b])

// ---------------------------------------------------------------- file access

async function withFile<T>(path: string, use: (file: FileHandle, index: FileIndex) => Promise<T>): Promise<T> {
  let file: FileHandle
  try {
    file = await open(path, 'r')
  } catch (error) {
    throw fsError(error)
  }
  try {
    const stat = await file.stat()
    if (stat.isDirectory()) throw new ResourceError('read_failed', 'this is a folder, not a file')
    const index = await indexFor(file, `${path}\0${stat.size}\0${stat.mtimeMs}`, stat.size)
    const result = await use(file, index)
    indexes.set(`${path}\0${stat.size}\0${stat.mtimeMs}`, index) // refresh its size in the LRU
    return result
  } catch (error) {
    throw fsError(error)
  } finally {
    await file.close()
  }
}

function fsError(error: any): ResourceError {
  if (error instanceof ResourceError) return error
  const code = error?.code
  if (code === 'ENOENT' || code === 'ENOTDIR') return new ResourceError('not_found', 'no such file')
  if (code === 'EACCES' || code === 'EPERM') return new ResourceError('forbidden', 'permission denied')
  if (code === 'EISDIR') return new ResourceError('read_failed', 'this is a folder, not a file')
  return new ResourceError('read_failed', `cannot read the file (${code ?? error?.message ?? error})`)
}

async function indexFor(file: FileHandle, key: string, size: number): Promise<FileIndex> {
  let index = indexes.get(key)
  if (index) return index
  index = new FileIndex(size)
  if (size <= SMALL_FILE) await countWholeFile(file, index)
  indexes.set(key, index)
  return index
}

async function countWholeFile(file: FileHandle, index: FileIndex): Promise<void> {
  const bytes = Buffer.allocUnsafe(index.size)
  const n = await readFully(file, bytes, 0, index.size, 0)
  const text = decode(bytes, 0, n).text
  index.totalChars = text.length
  index.totalLines = countLines(text)
}

async function readFully(file: FileHandle, buffer: Buffer, start: number, length: number, position: number): Promise<number> {
  let done = 0
  while (done < length) {
    const { bytesRead } = await file.read(buffer, start + done, length - done, position + done)
    if (!bytesRead) break
    done += bytesRead
  }
  return done
}

const spareBuffers: Buffer[] = []

async function withChunkBuffer<T>(use: (buffer: Buffer) => Promise<T>): Promise<T> {
  const buffer = spareBuffers.pop() ?? Buffer.allocUnsafe(CHUNK)
  try {
    return await use(buffer)
  } finally {
    if (spareBuffers.length < 4) spareBuffers.push(buffer)
  }
}

// ---------------------------------------------------------------- seeking

function isEmpty(range: LineRange): boolean {
  return range.end !== undefined && range.end < range.start
}

/** Position of `offset` units into the range, remembered from an earlier page when possible. */
async function locate(file: FileHandle, index: FileIndex, range: LineRange, offset: number): Promise<Position> {
  if (isEmpty(range)) return { byte: index.size, line: range.start, column: 1 }
  const known = offset > 0 && index.recall(range.start, offset)
  if (known) return known
  const start = await seekLine(file, index, range.start)
  return offset > 0 ? seekOffset(file, index, start, offset, range.end) : start
}

/** Byte where `target` starts (the end of the file when it has fewer lines). */
async function seekLine(file: FileHandle, index: FileIndex, target: number): Promise<Position> {
  const from = index.nearest(target)
  if (from.line === target) return { ...from, column: 1 }
  if (index.totalLines !== undefined && target > index.totalLines) return { byte: index.size, line: target, column: 1 }
  return withChunkBuffer(async (buffer) => {
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
async function seekOffset(file: FileHandle, index: FileIndex, start: Position, offset: number, endLine?: number): Promise<Position> {
  return withChunkBuffer(async (buffer) => {
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
async function readWindow(file: FileHandle, index: FileIndex, at: Position, endLine: number | undefined, budget: Budget): Promise<Window> {
  if (endLine !== undefined && at.line > endLine) return { ...decode(Buffer.alloc(0), 0, 0), atEnd: true, reachedEof: false, reachedRangeEnd: true }
  const want = Math.min((budget.units + 1) * 3 + 3, index.size - at.byte)
  const bytes = Buffer.allocUnsafe(want)
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
async function readRangeBytes(file: FileHandle, index: FileIndex, at: Position, endLine: number | undefined, maxBytes: number): Promise<Buffer> {
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

// ---------------------------------------------------------------- UTF-8

interface Decoded {
  text: string
  /** the bytes the text came from, and whether they were valid UTF-8 */
  bytes: Buffer
  clean: boolean
}

function decode(bytes: Buffer, start: number, end: number): Decoded {
  const view = bytes.subarray(start, end)
  const fast = view.toString('utf8')
  if (!fast.includes('\uFFFD')) return { text: fast, bytes: view, clean: true }
  return { text: decodeGreedy(view), bytes: view, clean: false }
}

/** Bytes of the first text.length units of `decoded`. */
function encodedLength(text: string, decoded: Decoded): number {
  if (decoded.clean) return Buffer.byteLength(text, 'utf8')
  const bytes = decoded.bytes
  let units = 0
  let i = 0
  while (units < text.length) {
    const length = bytes[i] < 0x80 ? 1 : sequenceLength(bytes, i, bytes.length)
    units += length === 4 ? 2 : 1
    i += length || 1
  }
  return i
}

/** One U+FFFD per byte that does not start a valid sequence. */
function decodeGreedy(bytes: Uint8Array): string {
  const parts: string[] = []
  let codes: number[] = []
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]
    const length = b < 0x80 ? 1 : sequenceLength(bytes, i, bytes.length)
    if (length === 0) codes.push(0xfffd)
    else pushCodePoint(codes, codePoint(bytes, i, length))
    i += length || 1
    if (codes.length >= 8192) {
      parts.push(String.fromCharCode(...codes))
      codes = []
    }
  }
  parts.push(String.fromCharCode(...codes))
  return parts.join('')
}

function pushCodePoint(codes: number[], cp: number): void {
  if (cp < 0x10000) codes.push(cp)
  else codes.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff))
}

function codePoint(bytes: Uint8Array, i: number, length: number): number {
  if (length === 1) return bytes[i]
  let cp = bytes[i] & (0xff >> (length + 1))
  for (let k = 1; k < length; k++) cp = (cp << 6) | (bytes[i + k] & 0x3f)
  return cp
}

/** Length of the valid multi-byte sequence at i (RFC 3629), or 0. */
function sequenceLength(bytes: Uint8Array, i: number, end: number): number {
  const b = bytes[i]
  const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0
  if (!length || i + length > end) return 0
  const [lo, hi] = secondByteRange(b)
  if (bytes[i + 1] < lo || bytes[i + 1] > hi) return 0
  for (let k = 2; k < length; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return 0
  return length
}

function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf]
  if (lead === 0xed) return [0x80, 0x9f]
  if (lead === 0xf0) return [0x90, 0xbf]
  if (lead === 0xf4) return [0x80, 0x8f]
  return [0x80, 0xbf]
}

/** True when bytes[i, end) is the valid start of a sequence that needs more bytes. */
function isIncompleteTail(bytes: Uint8Array, i: number, end: number): boolean {
  const b = bytes[i]
  const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0
  if (!length || i + length <= end) return false
  const [lo, hi] = secondByteRange(b)
  if (i + 1 < end && (bytes[i + 1] < lo || bytes[i + 1] > hi)) return false
  for (let k = 2; i + k < end; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return false
  return true
}

/** n, less a trailing sequence that the next bytes may complete. */
function completeLength(bytes: Uint8Array, n: number): number {
  for (let i = n - 1; i >= Math.max(0, n - 3); i--) {
    if (bytes[i] >= 0xc0) return isIncompleteTail(bytes, i, n) ? i : n
    if (bytes[i] < 0x80) return n
  }
  return n
}
