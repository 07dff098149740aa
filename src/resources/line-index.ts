/*
 * Per file (path, size, mtimeMs) a sparse line index: the byte offset of every STRIDE-th line,
 * built while scanning, and the positions of Continue offsets, so the next page seeks straight
 * to its byte.
 */
import { LRUCache } from 'lru-cache'

const STRIDE = 1024
const MAX_POSITIONS = 512

/** A place in a file: its byte, and the 1-based line and UTF-16 column there. */
export interface Position {
  byte: number
  line: number
  column: number
}

export class FileIndex {
  /** marks[i] = byte where line i * STRIDE + 1 starts */
  marks: number[] = [0]
  frontier = { line: 1, byte: 0 }
  totalLines?: number
  totalChars?: number
  private positions = new LRUCache<string, Position>({ max: MAX_POSITIONS })

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
    this.positions.set(`${startLine}:${offset}`, position)
  }

  recall(startLine: number, offset: number): Position | undefined {
    return this.positions.get(`${startLine}:${offset}`)
  }
}
