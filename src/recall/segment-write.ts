// Writing segments (docs/recall.md "Files"): the live buffer becomes a segment, and consecutive
// segments merge into one. Both stream: the columns are written in pieces at their known places,
// the documents and postings in order, the dictionary through a file of its own that is copied
// after the postings. Memory stays bounded by the pieces (1 MiB buffers, 64 Ki column entries)
// and the bucket table, whatever the size of the segments. A merge of segments that are
// consecutive concatenates each term's postings: only the first gap of each part is re-encoded.
import { open, rename, rm, type FileHandle } from 'node:fs/promises'
import { crc32 } from 'node:zlib'
import { ByteWriter, lengthCode, termHash, termOrder, utf8 } from './codec'
import { encodeDoc } from './docs'
import type { LiveBuffer } from './live'
import { columnsAt, HEAD, TAIL, type Footer, type Segment } from './segment'
import type { Speaker } from './source'

const PIECE = 1 << 20
const COLUMN_PIECE = 1 << 16

/** Bytes appended at increasing positions of a file, in pieces. */
class Sink {
  private buf = new Uint8Array(PIECE)
  private used = 0

  constructor(private fh: FileHandle, public pos: number) {}

  async write(b: Uint8Array): Promise<void> {
    if (this.used + b.length > this.buf.length) await this.flush()
    if (b.length > this.buf.length) {
      await writeAll(this.fh, b, this.pos)
      this.pos += b.length
      return
    }
    this.buf.set(b, this.used)
    this.used += b.length
  }

  /** where the next byte goes */
  get at(): number {
    return this.pos + this.used
  }

  async flush(): Promise<void> {
    if (!this.used) return
    await writeAll(this.fh, this.buf.subarray(0, this.used), this.pos)
    this.pos += this.used
    this.used = 0
  }
}

async function writeAll(fh: FileHandle, b: Uint8Array, pos: number): Promise<void> {
  for (let done = 0; done < b.length;) done += (await fh.write(b, done, b.length - done, pos + done)).bytesWritten
}

export class SegmentWriter {
  private docs: Sink
  private docBytes = 0
  private docCount = 0
  private offs = new Float64Array(COLUMN_PIECE)
  private ats = new Uint32Array(COLUMN_PIECE)
  private whos = new Uint32Array(COLUMN_PIECE)
  private piece = 0
  private post?: Sink
  private postAt = 0
  private dict?: { fh: FileHandle; sink: Sink; length: number }
  private bits = 0
  private buckets = new Uint32Array(1)
  private nextBucket = 0
  private terms = 0
  private entry = new ByteWriter(256)
  private varint = new ByteWriter(16)

  private constructor(
    private fh: FileHandle, private path: string, readonly from: number, readonly count: number, private speakers: Speaker[],
    private idsFrom: number,
  ) {
    this.docs = new Sink(fh, columnsAt(count).docs)
  }

  /** `idsFrom`: the first message whose id is a term (id-term.ts); the messages before it were written without. */
  static async create(path: string, from: number, count: number, speakers: Speaker[], idsFrom: number): Promise<SegmentWriter> {
    const fh = await open(`${path}.tmp`, 'w')
    await writeAll(fh, utf8.encode(HEAD), 0)
    return new SegmentWriter(fh, path, from, count, speakers, idsFrom)
  }

  async doc(json: Uint8Array, at: number, who: number): Promise<void> {
    const i = this.docCount - this.piece
    this.offs[i] = this.docBytes
    this.ats[i] = at
    this.whos[i] = who
    this.docCount++
    this.docBytes += json.length
    await this.docs.write(json)
    if (this.docCount - this.piece === COLUMN_PIECE) await this.writeColumns()
  }

  private async writeColumns(): Promise<void> {
    const n = this.docCount - this.piece
    if (!n) return
    const at = columnsAt(this.count)
    await writeAll(this.fh, new Uint8Array(this.offs.buffer, 0, 8 * n), at.docOff + 8 * this.piece)
    await writeAll(this.fh, new Uint8Array(this.ats.buffer, 0, 4 * n), at.at + 4 * this.piece)
    await writeAll(this.fh, new Uint8Array(this.whos.buffer, 0, 4 * n), at.who + 4 * this.piece)
    this.piece = this.docCount
  }

  /** After the last document: the postings follow; `upTo` terms at most will come. */
  async beginTerms(upTo: number): Promise<void> {
    if (this.docCount !== this.count) throw new Error(`segment ${this.path}: ${this.docCount} documents written, ${this.count} announced`)
    await this.writeColumns()
    await writeAll(this.fh, new Uint8Array(new Float64Array([this.docBytes]).buffer), columnsAt(this.count).docOff + 8 * this.count)
    await this.docs.flush()
    this.postAt = this.docs.pos
    this.post = new Sink(this.fh, this.postAt)
    while (this.bits < 24 && (1 << this.bits) * 8 < upTo) this.bits++
    this.buckets = new Uint32Array((1 << this.bits) + 1)
    const fh = await open(`${this.path}.dict`, 'w+')
    this.dict = { fh, sink: new Sink(fh, 0), length: 0 }
  }

  /** One term, in dictionary order, with its postings in parts (concatenated). */
  async term(term: string, hash: number, parts: Uint8Array[], df: number, last: number): Promise<void> {
    const post = this.post!
    const dict = this.dict!
    const off = post.at - this.postAt
    let len = 0
    for (const p of parts) {
      await post.write(p)
      len += p.length
    }
    const bucket = this.bits ? hash >>> (32 - this.bits) : 0
    while (this.nextBucket <= bucket) this.buckets[this.nextBucket++] = dict.length
    const name = utf8.encode(term)
    const e = this.entry
    e.clear()
    e.varint(name.length)
    e.bytes(name)
    e.varint(df)
    e.varint(off)
    e.varint(len)
    e.varint(last)
    await dict.sink.write(e.view)
    dict.length += e.length
    this.terms++
  }

  /** Writes the dictionary, the buckets and the footer; the segment takes its name. Returns its size. */
  async finish(totalLen: number): Promise<number> {
    const dict = this.dict!
    const post = this.post!
    await post.flush()
    await dict.sink.flush()
    const dictAt = post.pos
    const copy = new Uint8Array(PIECE)
    for (let done = 0; done < dict.length;) {
      const { bytesRead } = await dict.fh.read(copy, 0, Math.min(PIECE, dict.length - done), done)
      if (!bytesRead) throw new Error(`segment ${this.path}: the dictionary file ended early`)
      await writeAll(this.fh, copy.subarray(0, bytesRead), dictAt + done)
      done += bytesRead
    }
    await dict.fh.close()
    await rm(`${this.path}.dict`, { force: true })
    while (this.nextBucket < this.buckets.length) this.buckets[this.nextBucket++] = dict.length
    const bktAt = dictAt + dict.length
    await writeAll(this.fh, new Uint8Array(this.buckets.buffer), bktAt)
    const footer: Footer = {
      v: 1, from: this.from, count: this.count, totalLen, terms: this.terms, bits: this.bits,
      docsAt: columnsAt(this.count).docs, postAt: this.postAt, dictAt, bktAt,
      speakers: this.speakers.map(s => [s.uid, s.name, s.n]), idsFrom: this.idsFrom,
    }
    const raw = utf8.encode(JSON.stringify(footer))
    const trailer = new Uint8Array(16)
    const v = new DataView(trailer.buffer)
    v.setUint32(0, raw.length, true)
    v.setUint32(4, crc32(raw) >>> 0, true)
    trailer.set(utf8.encode(TAIL), 8)
    const end = bktAt + this.buckets.byteLength
    await writeAll(this.fh, raw, end)
    await writeAll(this.fh, trailer, end + raw.length)
    await this.fh.close()
    await rename(`${this.path}.tmp`, this.path)
    return end + raw.length + trailer.length
  }

  /** Stops a write that will not finish: its files go. */
  async abandon(): Promise<void> {
    await this.fh.close().catch(() => {})
    await this.dict?.fh.close().catch(() => {})
    await rm(`${this.path}.tmp`, { force: true })
    await rm(`${this.path}.dict`, { force: true })
  }
}

/** The live buffer as a segment file at `path`; returns its size. */
export async function writeLive(live: LiveBuffer, path: string): Promise<number> {
  const w = await SegmentWriter.create(path, live.from, live.count, live.speakers.map(s => ({ ...s })), live.from)
  try {
    for (let i = 0; i < live.count; i++) await w.doc(utf8.encode(encodeDoc(live.docs[i])), live.ats[i], live.who[i])
    // the words and the message ids (id-term.ts), in one dictionary
    const ids = new Map(live.idPostings())
    const terms = [...live.termList(), ...ids.keys()].map(term => ({ term, hash: termHash(term) })).sort(termOrder)
    await w.beginTerms(terms.length)
    const b = new ByteWriter()
    for (const { term, hash } of terms) {
      const id = ids.get(term)
      const p = id ? { docs: id, tfs: id.map(() => 1) } : live.postingsOf(term)!
      b.clear()
      let prev = -1
      for (let i = 0; i < p.docs.length; i++) {
        b.varint(p.docs[i] - prev - 1)
        b.varint(p.tfs[i])
        b.u8(lengthCode(live.lens[p.docs[i]]))
        prev = p.docs[i]
      }
      await w.term(term, hash, [b.view], p.docs.length, prev)
    }
    return await w.finish(live.totalLen)
  } catch (e) {
    await w.abandon()
    throw e
  }
}
