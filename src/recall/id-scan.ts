// Finding a message by its platform id in the part of a segment written before ids were terms
// (id-term.ts; docs/recall.md "Finding a message by its id"): its stored messages are read from the
// newest back, about 1 MiB at a time, and searched for the id as the JSON that stores it
// (`,"<id>",`, right after the message's key); a match is taken once its message decodes with that id.
import { fromUtf8 } from './codec'
import { decodeDoc } from './docs'
import type { Segment } from './segment'

/** messages whose offsets are read at once */
const WINDOW = 1024
/** bytes of stored messages read at once (one message may be more) */
const BYTES = 1 << 20

/** The newest message (its number) among local messages 0..end-1 of `seg` whose id is `id`. */
export function scanForId(seg: Segment, id: string, end: number): number | undefined {
  const needle = Buffer.from(`,${JSON.stringify(id)},`)
  for (let b = end; b > 0;) {
    const a = Math.max(0, b - WINDOW)
    const offs = seg.docOffsets(a, b)
    let first = 0
    while (first < b - a - 1 && offs[b - a] - offs[first] > BYTES) first++
    const base = offs[first]
    const read = seg.docBytes(base, offs[b - a])
    const bytes = Buffer.from(read.buffer, read.byteOffset, read.length)
    for (let p = bytes.lastIndexOf(needle); p >= 0; p = p ? bytes.lastIndexOf(needle, p - 1) : -1) {
      let j = b - a - 1
      while (offs[j] - base > p) j--
      const doc = decodeDoc(fromUtf8.decode(bytes.subarray(offs[j] - base, offs[j + 1] - base)))
      if (doc.id === id) return seg.from + a + j
    }
    b = a + first
  }
  return undefined
}
