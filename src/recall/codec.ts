// Byte-level pieces of the index files (docs/recall.md "Files"): unsigned LEB128 varints (written
// by ByteWriter, read by readVarint alone), a
// growable byte buffer, the one-byte code of a document's length, and the order of terms in a
// dictionary (by a 32-bit FNV-1a hash, then by the term), which makes a dictionary a hash table
// on disk whose buckets are contiguous runs of entries.

export class ByteWriter {
  buf: Uint8Array
  length = 0

  constructor(capacity = 4096) {
    this.buf = new Uint8Array(capacity)
  }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.length + n) size *= 2
    const next = new Uint8Array(size)
    next.set(this.buf.subarray(0, this.length))
    this.buf = next
  }

  varint(n: number): void {
    this.room(8)
    while (n >= 0x80) {
      this.buf[this.length++] = (n % 0x80) | 0x80
      n = Math.floor(n / 0x80)
    }
    this.buf[this.length++] = n
  }

  u8(n: number): void {
    this.room(1)
    this.buf[this.length++] = n
  }

  bytes(b: Uint8Array): void {
    this.room(b.length)
    this.buf.set(b, this.length)
    this.length += b.length
  }

  get view(): Uint8Array {
    return this.buf.subarray(0, this.length)
  }

  clear(): void {
    this.length = 0
  }
}

/** A file of the index that does not hold what kotodama wrote: it is made again from the history. */
export class CorruptIndex extends Error {}

/** The one varint decoder: the unsigned LEB128 number at `at.pos` of `buf`; `at.pos` moves past it. */
export function readVarint(buf: Uint8Array, at: { pos: number }): number {
  let n = 0
  let mul = 1
  for (;;) {
    const b = buf[at.pos++]
    if (b === undefined) throw new CorruptIndex('a varint runs past the end of its bytes')
    n += (b & 0x7f) * mul
    if (b < 0x80) return n
    mul *= 0x80
  }
}

/** Reads varints from `buf` starting at `pos`; `pos` moves past each. */
export class ByteReader {
  constructor(readonly buf: Uint8Array, public pos = 0) {}

  varint(): number {
    return readVarint(this.buf, this)
  }

  u8(): number {
    const b = this.buf[this.pos++]
    if (b === undefined) throw new CorruptIndex('a byte past the end')
    return b
  }

  get done(): boolean {
    return this.pos >= this.buf.length
  }
}

/** A document length in one byte: exact below 16, then 5 % steps (up to about two million tokens). */
export function lengthCode(n: number): number {
  if (n < 16) return n
  return Math.min(255, 16 + Math.round(Math.log(n / 16) / Math.log(1.05)))
}

export const LENGTHS: Float64Array = (() => {
  const t = new Float64Array(256)
  for (let c = 0; c < 256; c++) t[c] = c < 16 ? c : 16 * 1.05 ** (c - 16)
  return t
})()

/** FNV-1a over UTF-16 units, unsigned. */
export function termHash(term: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < term.length; i++) {
    h ^= term.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** Dictionary order: hash, then the term itself. */
export function termOrder(a: { hash: number; term: string }, b: { hash: number; term: string }): number {
  return a.hash - b.hash || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0)
}

export const utf8 = new TextEncoder()
export const fromUtf8 = new TextDecoder()
