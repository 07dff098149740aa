/*
 * A small file's decoded text, kept so that its pages are string slices (see cache.ts for which
 * files are kept). It decodes greedily like the streamed path, so both give the same pages.
 */
import { isAscii } from 'node:buffer'
import { decode } from './utf8'

/** The bytes a sniff looks at. */
export const HEAD_BYTES = 8192
const PIECE = 64 << 10
const NL = 10

/**
 * A small file's decoded text, with what a page needs to find its lines. It is kept in pieces of
 * about PIECE bytes cut after a '\n' (the greedy decoder never spans one, so together they are
 * the whole decoding): one 450 KB string cost ~6× as much to make as 64 KiB ones, being a
 * large-object allocation on fresh pages.
 */
export class WholeText {
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

/** The last i with sorted[i] <= value (sorted[0] is 0). */
export function lastAtOrBefore(sorted: ArrayLike<number>, value: number): number {
  let lo = 0
  let hi = sorted.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (sorted[mid] <= value) lo = mid
    else hi = mid - 1
  }
  return lo
}
