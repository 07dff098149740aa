// The bytes of a line range of a text file (readFileRangeText), read chunk by chunk and refused
// past a size cap, so a huge range is never gathered whole.
import { ResourceError } from '../errors'
import type { Position } from '../line-index'
import { CHUNK } from '../text-cache'
import { countByte, nthNewlineEnd, NL } from './newlines'
import type { Scan } from './seek'
import { readFully } from './text-file'

/** Reads the range's bytes from `at`, refusing more than maxBytes. */
export async function readRangeBytes({ source: file, index }: Scan, at: Position, endLine: number | undefined, maxBytes: number): Promise<Buffer> {
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
