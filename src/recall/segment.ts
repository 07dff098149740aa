// One immutable segment of a conversation's index: the messages `from`..`from+count-1`, their
// postings and their stored text, in one file (docs/recall.md "Files"). Nothing of it is held in
// memory but its footer: a term is found by two small reads (its bucket's bounds, the bucket),
// its postings and a document by one read each. Reads are synchronous on a descriptor opened on
// first use and closed by `release()` (after each search), so no descriptor stays open.
//
//   'KTRS0001' | docOff f64×(count+1) | at u32×count (seconds) | who u32×count | docs (JSON) |
//   postings | dictionary | buckets u32×(2^bits+1) | footer JSON | u32 length | u32 crc32 | 'KTRSEND1'
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { crc32 } from 'node:zlib'
import { ByteReader, CorruptIndex, fromUtf8, readVarint, termHash, utf8 } from './codec'
import { decodeDoc, type RecallDoc } from './docs'
import type { Source, Speaker } from './source'
import { idTerm } from './id-term'

export const HEAD = 'KTRS0001'
export const TAIL = 'KTRSEND1'
export const TRAILER = 16

export interface Footer {
  v: 1
  from: number
  count: number
  /** sum of the documents' lengths in terms */
  totalLen: number
  terms: number
  bits: number
  docsAt: number
  postAt: number
  dictAt: number
  bktAt: number
  speakers: [string, string, number][]
  /** the first message whose id is a term (id-term.ts); absent: a segment written before ids were (none is) */
  idsFrom?: number
}

export interface TermEntry {
  df: number
  /** the last document of the postings, local to the segment */
  last: number
  off: number
  len: number
}

export { CorruptIndex }

export const columnsAt = (count: number) => ({ docOff: 8, at: 8 + 8 * (count + 1), who: 8 + 8 * (count + 1) + 4 * count, docs: 8 + 16 * count + 8 })

export class Segment implements Source {
  private fd?: number
  readonly from: number
  readonly count: number
  readonly totalLen: number
  readonly speakers: Speaker[]

  private constructor(readonly path: string, readonly footer: Footer, readonly bytes: number) {
    this.from = footer.from
    this.count = footer.count
    this.totalLen = footer.totalLen
    this.speakers = footer.speakers.map(([uid, name, n]) => ({ uid, name, n }))
  }

  /** Reads and checks the footer; a file that is not a whole segment is CorruptIndex. */
  static open(path: string): Segment {
    const fd = openSync(path, 'r')
    try {
      const size = fstatSync(fd).size
      if (size < TRAILER + 8) throw new CorruptIndex(`${path}: too short`)
      const trailer = readAt(fd, size - TRAILER, TRAILER)
      const view = new DataView(trailer.buffer, trailer.byteOffset)
      if (fromUtf8.decode(trailer.subarray(8)) !== TAIL) throw new CorruptIndex(`${path}: no end mark`)
      const length = view.getUint32(0, true)
      if (length > size - TRAILER - 8) throw new CorruptIndex(`${path}: bad footer length`)
      const raw = readAt(fd, size - TRAILER - length, length)
      if ((crc32(raw) >>> 0) !== view.getUint32(4, true)) throw new CorruptIndex(`${path}: footer checksum`)
      const footer = JSON.parse(fromUtf8.decode(raw)) as Footer
      if (fromUtf8.decode(readAt(fd, 0, 8)) !== HEAD || footer.v !== 1 || !(footer.bktAt + 4 * ((1 << footer.bits) + 1) <= size - TRAILER - length)) {
        throw new CorruptIndex(`${path}: bad header or sections`)
      }
      const ids = footer.idsFrom
      if (ids !== undefined && !(Number.isInteger(ids) && ids >= footer.from && ids <= footer.from + footer.count)) {
        throw new CorruptIndex(`${path}: bad idsFrom`)
      }
      const segment = new Segment(path, footer, size)
      segment.fd = fd
      return segment
    } catch (e) {
      closeSync(fd)
      if (e instanceof CorruptIndex) throw e
      throw new CorruptIndex(`${path}: ${(e as Error)?.message ?? e}`)
    }
  }

  private read(pos: number, length: number): Uint8Array {
    this.fd ??= openSync(this.path, 'r')
    const out = readAt(this.fd, pos, length)
    if (out.length !== length) throw new CorruptIndex(`${this.path}: short read at ${pos}`)
    return out
  }

  /** The term's postings entry, or undefined when no document of the segment has it. */
  lookup(term: string): TermEntry | undefined {
    const f = this.footer
    if (!f.terms) return undefined
    const bucket = f.bits ? termHash(term) >>> (32 - f.bits) : 0
    const bounds = this.read(f.bktAt + 4 * bucket, 8)
    const v = new DataView(bounds.buffer, bounds.byteOffset)
    const start = v.getUint32(0, true)
    const end = v.getUint32(4, true)
    if (end <= start) return undefined
    const r = new ByteReader(this.read(f.dictAt + start, end - start))
    const want = utf8.encode(term)
    while (!r.done) {
      const n = r.varint()
      const at = r.pos
      r.pos += n
      const entry = { df: r.varint(), off: r.varint(), len: r.varint(), last: r.varint() }
      if (n === want.length && sameBytes(r.buf, at, want)) return entry
    }
    return undefined
  }

  postings(e: TermEntry): Uint8Array {
    return this.read(this.footer.postAt + e.off, e.len)
  }

  find(term: string): { df: number; handle: unknown } | undefined {
    const e = this.lookup(term)
    return e && { df: e.df, handle: e }
  }

  /** Postings are (gap varint, count varint, length code byte), the first gap counted from -1. */
  decode(handle: unknown, docs: Int32Array, tfs: Uint16Array, lens: Uint8Array, at: number): void {
    const e = handle as TermEntry
    const b = this.postings(e)
    const r = { pos: 0 }
    let doc = this.from - 1
    for (let i = 0; i < e.df; i++) {
      doc += readVarint(b, r) + 1
      const tf = readVarint(b, r)
      docs[at + i] = doc
      tfs[at + i] = tf > 0xffff ? 0xffff : tf
      lens[at + i] = b[r.pos++]
    }
    if (r.pos !== b.length) throw new CorruptIndex(`${this.path}: postings do not end where the dictionary says`)
  }

  /** Stored message `n` (local index). */
  doc(n: number): RecallDoc {
    const offs = this.read(8 + 8 * n, 16)
    const v = new DataView(offs.buffer, offs.byteOffset)
    const a = v.getFloat64(0, true)
    const b = v.getFloat64(8, true)
    try {
      return decodeDoc(fromUtf8.decode(this.read(this.footer.docsAt + a, b - a)))
    } catch (e) {
      throw new CorruptIndex(`${this.path}: message ${this.from + n} is unreadable`)
    }
  }

  /** The first message whose id is a term (id-term.ts); the ones before it are found by reading them (id-scan.ts). */
  get idsFrom(): number {
    return this.footer.idsFrom ?? this.from + this.count
  }

  /** The newest message (its number) from `idsFrom` on whose platform id is `id`. */
  newestWithId(id: string): number | undefined {
    if (this.idsFrom >= this.from + this.count) return undefined
    const e = this.lookup(idTerm(id))
    const n = e && this.from + e.last
    return n !== undefined && n >= this.idsFrom ? n : undefined
  }

  /** Where stored messages a..b (local) start, and where the last of them ends: b - a + 1 offsets. */
  docOffsets(a: number, b: number): Float64Array {
    const bytes = this.read(8 + 8 * a, 8 * (b - a + 1))
    return new Float64Array(bytes.buffer, bytes.byteOffset, b - a + 1)
  }

  /** The stored messages' bytes between two of their offsets. */
  docBytes(start: number, end: number): Uint8Array {
    return this.read(this.footer.docsAt + start, end - start)
  }

  /** The `at` (seconds) or `who` column of local documents [a, b). */
  column(name: 'at' | 'who', a: number, b: number): Uint32Array {
    if (b <= a) return new Uint32Array(0)
    const bytes = this.read(columnsAt(this.count)[name] + 4 * a, 4 * (b - a))
    return new Uint32Array(bytes.buffer, bytes.byteOffset, b - a)
  }

  release(): void {
    if (this.fd === undefined) return
    closeSync(this.fd)
    this.fd = undefined
  }
}

function sameBytes(buf: Uint8Array, at: number, want: Uint8Array): boolean {
  for (let i = 0; i < want.length; i++) if (buf[at + i] !== want[i]) return false
  return true
}

/** `length` bytes at `pos`, in a buffer of their own (aligned for typed views). */
export function readAt(fd: number, pos: number, length: number): Uint8Array {
  const out = new Uint8Array(length)
  let got = 0
  while (got < length) {
    const n = readSync(fd, out, got, length - got, pos + got)
    if (!n) break
    got += n
  }
  return got === length ? out : out.subarray(0, got)
}
