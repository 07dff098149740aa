// Walking a text file to a line or to an offset inside a range (SPEC §6), one chunk at a time,
// remembering line starts in the file's index so the next page seeks less.
import { insidePair } from '../paging'
import { splitsSurrogatePair } from '../../util/surrogate'
import { CHUNK, type TextCache } from '../text-cache'
import type { FileIndex, Position } from '../line-index'
import { readFully, type Source, type TextFile } from './text-file'
import { completeLength, decode, encodedLength, type Decoded } from '../utf8'
import { countNewlines, NL } from './newlines'

/** What a streamed read works with: the open file, its line index, and the cache lending chunk buffers. */
export interface Scan {
  source: Source
  /** the same file for the page window's one bounded read (synchronous on a local disk) */
  window: Source
  index: FileIndex
  cache: TextCache
}

export async function scanOf(file: TextFile): Promise<Scan> {
  return { source: await file.source(), window: await file.source(true), index: await file.index(), cache: file.cache }
}

/** Byte where `target` starts (the end of the file when it has fewer lines). */
export async function seekLine({ source: file, index, cache }: Scan, target: number): Promise<Position> {
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
export async function seekOffset({ source: file, index, cache }: Scan, start: Position, offset: number, endLine?: number): Promise<Position> {
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

/** Position after `text`, which was decoded from `from.byte` on. */
export function advance(from: Position, text: string, decoded: Decoded): Position {
  const byte = from.byte + encodedLength(text, decoded)
  const lastNl = text.lastIndexOf('\n')
  if (lastNl < 0) return { byte, line: from.line, column: from.column + text.length }
  return { byte, line: from.line + countNewlines(text), column: text.length - lastNl }
}
