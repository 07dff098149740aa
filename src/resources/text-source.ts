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
 * - Small files keep their decoded text instead (an LRU of 32 MiB by size, same key): files up
 *   to 256 KiB on first sight (they were always read whole, to count them), files up to 1 MiB
 *   from their first Continue page on (paging through is likely then; a single first page stays
 *   a 90 KB read). A page of a kept text is a string slice, with the same body, offsets and
 *   positions as the streamed page: both decode greedily and plan with planPage.
 * - totalLines/totalChars are the whole file's, given only when cheap: always for a kept text;
 *   for a larger file totalLines once a scan has reached its end.
 * - Metadata calls (stat, open, fstat, the 8 KiB head) are synchronous: locally they take a few
 *   µs, their async forms a thread-pool round trip each (~60 µs here), which made paging slow.
 *   So is the one read of a kept text (at most 1 MiB; the decode after it blocks longer). Every
 *   other content read stays async and chunked, so a scan through 1 GB never blocks the event
 *   loop in one go.
 */
import { isAscii } from 'node:buffer'
import { closeSync, fstatSync, open, openSync, read, readSync, statSync, type Stats } from 'node:fs'
import { LRUCache } from 'lru-cache'
import { ResourceError } from './errors'
import type { LineRange } from './file-url'
import { checkOffset, insidePair, planPage, splitsSurrogatePair, TEXT_BUDGET, type Budget, type ContinueUrl, type Page } from './paging'

export interface FilePageRequest {
  path: string
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

const STRIDE = 1024
const CHUNK = 1 << 20
const HEAD_BYTES = 8192
const PIECE = 64 << 10
const TEXT_CACHE_BYTES = 32 << 20
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

  constructor(readonly key: string, readonly size: number) {}

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

/**
 * A small file's decoded text, with what a page needs to find its lines. It is kept in pieces of
 * about PIECE bytes cut after a '\n' (the greedy decoder never spans one, so together they are
 * the whole decoding): one 450 KB string cost ~6× as much to make as 64 KiB ones, being a
 * large-object allocation on fresh pages.
 */
class WholeText {
  /** UTF-16 index where pieces[i] starts */
  private pieceStarts: number[] = []
  private pieces: string[] = []
  length = 0
  /** UTF-16 index where line i + 1 starts; a text ending in '\n' also lists its length */
  lineStarts: number[]
  totalLines: number
  /** the first HEAD_BYTES bytes (a copy), so a kept file is sniffed without opening it */
  readonly head: Buffer
  binary?: boolean

  constructor(bytes: Buffer) {
    const starts = [0]
    for (let from = 0; from < bytes.length;) {
      let to = Math.min(from + PIECE, bytes.length)
      if (to < bytes.length) {
        const nl = bytes.subarray(from, to).lastIndexOf(NL)
        to = nl >= 0 ? from + nl + 1 : bytes.indexOf(NL, to) + 1 || bytes.length
      }
      const view = bytes.subarray(from, to)
      let piece: string
      if (isAscii(view)) {
        // byte offsets are UTF-16 offsets here, and Buffer#indexOf is native: fast before the JIT warms up
        piece = view.toString('latin1')
        for (let nl = view.indexOf(NL); nl >= 0; nl = view.indexOf(NL, nl + 1)) starts.push(this.length + nl + 1)
      } else {
        piece = decode(view, 0, view.length).text
        for (let nl = piece.indexOf('\n'); nl >= 0; nl = piece.indexOf('\n', nl + 1)) starts.push(this.length + nl + 1)
      }
      this.pieceStarts.push(this.length)
      this.pieces.push(piece)
      this.length += piece.length
      from = to
    }
    this.lineStarts = starts
    this.totalLines = starts.length - 1 + (this.length && starts[starts.length - 1] !== this.length ? 1 : 0)
    this.head = Buffer.from(bytes.subarray(0, HEAD_BYTES))
  }

  get weight(): number {
    return 256 + this.length * 2 + this.lineStarts.length * 8 + this.head.length
  }

  /** Index where `line` starts; the length past the last line. */
  lineStart(line: number): number {
    return line - 1 < this.lineStarts.length ? this.lineStarts[line - 1] : this.length
  }

  slice(from: number, to = this.length): string {
    if (from >= to) return ''
    let i = lastAtOrBefore(this.pieceStarts, from)
    let out = ''
    for (; i < this.pieces.length && this.pieceStarts[i] < to; i++) {
      const start = this.pieceStarts[i]
      out += this.pieces[i].slice(Math.max(0, from - start), to - start)
    }
    return out
  }

  charCodeAt(index: number): number {
    const i = lastAtOrBefore(this.pieceStarts, index)
    return this.pieces[i].charCodeAt(index - this.pieceStarts[i])
  }
}

const texts = new LRUCache<string, WholeText>({
  maxSize: TEXT_CACHE_BYTES,
  sizeCalculation: (entry) => entry.weight,
})

/**
 * Sizes up to which a file's decoded text is kept: `eager` on first sight, `onContinue` from its
 * first Continue page on. Tests set them to 0 to drive the streamed path with small files.
 */
export const TEXT_LIMITS = { eager: 256 << 10, onContinue: 1 << 20 }

/** Forgets every file index and kept text (tests, or after a bulk change of files). */
export function clearTextSourceCache(): void {
  indexes.clear()
  texts.clear()
}

/**
 * A file as one read sees it: stat once (synchronously), the head for sniffing, then the kept
 * text or a descriptor for the page. A kept text means the file is never opened.
 */
export class TextFile {
  private fd = -1
  private sample?: Buffer
  private whole?: WholeText

  private constructor(readonly path: string, public stat: Stats) {
    this.whole = stat.isFile() ? texts.get(this.key) : undefined
  }

  /** Stats `path` (the file is opened when first needed); throws the fs error as it is. */
  static open(path: string): TextFile {
    return new TextFile(path, statSync(path))
  }

  get key(): string {
    return `${this.path}\0${this.stat.size}\0${this.stat.mtimeMs}`
  }

  get size(): number {
    return this.stat.size
  }

  /** The first 8 KiB (fewer for a shorter file). */
  async head(): Promise<Buffer> {
    if (this.whole) return this.whole.head
    if (!this.sample) {
      const fd = await this.descriptor()
      const regular = this.stat.isFile()
      const buffer = Buffer.allocUnsafe(regular ? Math.min(HEAD_BYTES, this.size) : HEAD_BYTES)
      try {
        const n = !buffer.length ? 0 : regular ? readSync(fd, buffer, 0, buffer.length, 0) : await readAt(fd, buffer, 0, buffer.length, 0)
        this.sample = buffer.subarray(0, n)
      } catch (error) {
        throw fsError(error)
      }
    }
    return this.sample
  }

  /**
   * The open descriptor; from then on the stat is the descriptor's own, so a file swapped since
   * the stat is not mixed up. A pipe or device is opened async: opening one may wait.
   */
  async descriptor(): Promise<number> {
    if (this.fd < 0) {
      try {
        this.fd = this.stat.isFile() ? openSync(this.path, 'r') : await openAsync(this.path)
        const stat = fstatSync(this.fd)
        if (stat.size !== this.stat.size || stat.mtimeMs !== this.stat.mtimeMs) this.whole = undefined
        this.stat = stat
      } catch (error) {
        throw fsError(error)
      }
    }
    return this.fd
  }

  /** A regular file of at most `bytes` (a pipe or device reports no real size). */
  fits(bytes: number): boolean {
    return this.stat.isFile() && this.size <= bytes
  }

  /** The kept text, if any. */
  cached(): WholeText | undefined {
    return this.whole
  }

  /** The descriptor for streamed reads, which are async: see the header. */
  async source(): Promise<Source> {
    return { fd: await this.descriptor(), sync: false }
  }

  /** looksBinary of the head, remembered with the kept text. */
  async looksBinary(): Promise<boolean> {
    if (this.whole) return this.whole.binary ??= looksBinary(this.whole.head)
    return looksBinary(await this.head())
  }

  /**
   * Reads and decodes the whole file and keeps it; for files that fit TEXT_LIMITS.onContinue.
   * The read is synchronous: one read of at most 1 MiB takes tens of µs locally against 60-250 µs
   * of waiting for the thread pool here, and the decode right after blocks longer anyway.
   */
  async load(): Promise<WholeText> {
    if (this.whole) return this.whole
    const file = { fd: await this.descriptor(), sync: true }
    const head = await this.head()
    const size = this.size
    const read = async (bytes: Buffer) => {
      head.copy(bytes, 0, 0, Math.min(head.length, size))
      const n = head.length >= size ? size : head.length + await readFully(file, bytes, head.length, size - head.length, head.length)
      return new WholeText(bytes.subarray(0, n))
    }
    // the spare chunk buffers are already mapped; a fresh buffer per load would fault its pages in
    this.whole = size <= CHUNK ? await withChunkBuffer(read) : await read(Buffer.allocUnsafe(size))
    texts.set(this.key, this.whole)
    return this.whole
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd)
    this.fd = -1
  }
}

export async function readFilePage(req: FilePageRequest): Promise<FilePageResult> {
  const budget = req.budget ?? TEXT_BUDGET
  const range = req.range ?? { start: 1 }
  const offset = req.offset ?? 0
  checkOffset(offset)
  return withFile(req.path, req.file, async (file) => {
    const keep = file.fits(TEXT_LIMITS.eager) || (offset > 0 && file.fits(TEXT_LIMITS.onContinue))
    const whole = file.cached() ?? (keep ? await file.load() : undefined)
    if (whole) return pageOfText(whole, range, offset, req.continueUrl, budget)
    return streamedPage(await file.source(), await indexFor(file), range, offset, req.continueUrl, budget)
  })
}

async function streamedPage(file: Source, index: FileIndex, range: LineRange, offset: number, continueUrl: ContinueUrl, budget: Budget): Promise<FilePageResult> {
  const at = await locate(file, index, range, offset)
  // a spare chunk buffer: a fresh 90 KB one per page would fault its pages in again
  return withChunkBuffer(async (buffer) => {
    const window = await readWindow(file, index, at, range.end, budget, buffer)
    const page = planPage(window.text, window.atEnd, offset, continueUrl, budget)
    if (page.nextOffset !== undefined) index.remember(range.start, page.nextOffset, advance(at, page.body, window))
    if (window.reachedEof) index.totalLines ??= linesBefore(at, window.text)
    if (window.reachedEof && at.byte === 0) index.totalChars ??= window.text.length
    indexes.set(index.key, index) // refresh its size in the LRU
    return {
      ...page,
      source: { offset, line: at.line, column: at.column },
      range: describeRange(range, index, window.reachedRangeEnd),
    }
  })
}

/** The whole range as text; too_large past maxBytes of the file. */
export async function readFileRangeText(path: string, range?: LineRange, maxBytes = DEFAULT_MAX_BYTES, opened?: TextFile): Promise<string> {
  const lines = range ?? { start: 1 }
  if (isEmpty(lines)) return ''
  return withFile(path, opened, async (file) => {
    // a file no larger than maxBytes cannot hold a range larger than that
    const whole = file.size <= maxBytes ? file.cached() ?? (file.fits(TEXT_LIMITS.onContinue) ? await file.load() : undefined) : undefined
    if (whole) return whole.slice(whole.lineStart(lines.start), lines.end === undefined ? undefined : whole.lineStart(lines.end + 1))
    const source = await file.source()
    const index = await indexFor(file)
    const at = await seekLine(source, index, lines.start)
    const bytes = await readRangeBytes(source, index, at, lines.end, maxBytes)
    indexes.set(index.key, index)
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

async function withFile<T>(path: string, opened: TextFile | undefined, use: (file: TextFile) => Promise<T>): Promise<T> {
  let file = opened
  try {
    file ??= TextFile.open(path)
    if (file.stat.isDirectory()) throw new ResourceError('read_failed', 'this is a folder, not a file')
    return await use(file)
  } catch (error) {
    throw fsError(error)
  } finally {
    if (!opened) file?.close()
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

/** The file's index, made on first sight; opens the file, so the key is the descriptor's stat. */
async function indexFor(file: TextFile): Promise<FileIndex> {
  await file.descriptor()
  const key = file.key
  let index = indexes.get(key)
  if (index) return index
  index = new FileIndex(key, file.size)
  indexes.set(key, index)
  return index
}

function openAsync(path: string): Promise<number> {
  return new Promise((resolve, reject) => open(path, 'r', (error, fd) => error ? reject(error) : resolve(fd)))
}

function readAt(fd: number, buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, buffer, offset, length, position, (error, bytesRead) => error ? reject(error) : resolve(bytesRead))
  })
}

/** An open file; `sync` only for the one read of a kept text (TextFile.load). */
interface Source {
  fd: number
  sync: boolean
}

async function readFully(file: Source, buffer: Buffer, start: number, length: number, position: number): Promise<number> {
  let done = 0
  while (done < length) {
    const bytesRead = file.sync
      ? readSync(file.fd, buffer, start + done, length - done, position + done)
      : await readAt(file.fd, buffer, start + done, length - done, position + done)
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

// ---------------------------------------------------------------- kept text

/** The streamed page's twin: the same window, positions and errors, taken from the kept text. */
function pageOfText(whole: WholeText, range: LineRange, offset: number, continueUrl: ContinueUrl, budget: Budget): FilePageResult {
  const { length, lineStarts, totalLines } = whole
  const empty = isEmpty(range)
  const start = empty ? length : whole.lineStart(range.start)
  const end = empty || range.end === undefined ? length : whole.lineStart(range.end + 1)
  // like seekOffset: the walk runs to the end of the file, not of the range
  const at = Math.min(start + offset, length)
  if (at > 0 && at < length && isHigh(whole.charCodeAt(at - 1)) && isLow(whole.charCodeAt(at))) throw insidePair(offset)
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

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff

/** The last i with sorted[i] <= value (sorted[0] is 0). */
function lastAtOrBefore(sorted: ArrayLike<number>, value: number): number {
  let lo = 0
  let hi = sorted.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (sorted[mid] <= value) lo = mid
    else hi = mid - 1
  }
  return lo
}

// ---------------------------------------------------------------- seeking

function isEmpty(range: LineRange): boolean {
  return range.end !== undefined && range.end < range.start
}

/** Position of `offset` units into the range, remembered from an earlier page when possible. */
async function locate(file: Source, index: FileIndex, range: LineRange, offset: number): Promise<Position> {
  if (isEmpty(range)) return { byte: index.size, line: range.start, column: 1 }
  const known = offset > 0 && index.recall(range.start, offset)
  if (known) return known
  const start = await seekLine(file, index, range.start)
  return offset > 0 ? seekOffset(file, index, start, offset, range.end) : start
}

/** Byte where `target` starts (the end of the file when it has fewer lines). */
async function seekLine(file: Source, index: FileIndex, target: number): Promise<Position> {
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
async function seekOffset(file: Source, index: FileIndex, start: Position, offset: number, endLine?: number): Promise<Position> {
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
async function readWindow(file: Source, index: FileIndex, at: Position, endLine: number | undefined, budget: Budget, spare: Buffer): Promise<Window> {
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
async function readRangeBytes(file: Source, index: FileIndex, at: Position, endLine: number | undefined, maxBytes: number): Promise<Buffer> {
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
