// Merging consecutive segments into one (docs/recall.md "Segments and merges"). Every part of each
// source is read in order, in pieces: its columns and documents, then its dictionary and postings
// side by side; the dictionaries, all in the same order, merge like sorted lists. Memory is the
// pieces, whatever the size of the sources.
import { open, type FileHandle } from 'node:fs/promises'
import { ByteWriter, fromUtf8, readVarint, termHash } from './codec'
import { columnsAt, CorruptIndex, type Segment } from './segment'
import { SegmentWriter } from './segment-write'
import type { Speaker } from './source'

const PIECE = 1 << 20
const DOCS_PIECE = 1 << 14

/** Reads a region of a file front to back. */
class Reader {
  private buf = new Uint8Array(0)
  /** where the next byte of `buf` is */
  pos = 0
  private filePos: number

  constructor(private fh: FileHandle, start: number, private end: number) {
    this.filePos = start
  }

  get done(): boolean {
    return this.pos >= this.buf.length && this.filePos >= this.end
  }

  /** At least `n` bytes ready (fewer only at the end of the region). */
  async need(n: number): Promise<void> {
    if (this.buf.length - this.pos >= n) return
    const rest = this.buf.subarray(this.pos)
    const want = Math.min(Math.max(n, PIECE), rest.length + this.end - this.filePos)
    const next = new Uint8Array(want)
    next.set(rest)
    let filled = rest.length
    while (filled < want) {
      const { bytesRead } = await this.fh.read(next, filled, want - filled, this.filePos)
      if (!bytesRead) throw new CorruptIndex('a segment ended early')
      filled += bytesRead
      this.filePos += bytesRead
    }
    this.buf = next
    this.pos = 0
  }

  /** `n` bytes (call `need(n)` first); valid until the next `need`. */
  take(n: number): Uint8Array {
    const out = this.buf.subarray(this.pos, this.pos + n)
    if (out.length < n) throw new CorruptIndex('a segment ended early')
    this.pos += n
    return out
  }

  varint(): number {
    return readVarint(this.buf, this)
  }
}

interface Head {
  term: string
  hash: number
  df: number
  len: number
  last: number
}

interface Part {
  seg: Segment
  fh: FileHandle
  dict: Reader
  post: Reader
  head?: Head
  /** the speaker numbers of this source in the merged table */
  speakerMap: Uint32Array
}

async function nextHead(p: Part): Promise<void> {
  if (p.dict.done) {
    p.head = undefined
    return
  }
  await p.dict.need(256)
  const n = p.dict.varint()
  const term = fromUtf8.decode(p.dict.take(n))
  const df = p.dict.varint()
  p.dict.varint() // offset: postings are read in dictionary order
  p.head = { term, hash: termHash(term), df, len: p.dict.varint(), last: p.dict.varint() }
}

/** Merges `sources` (consecutive, in order) into a segment at `path`; returns its size. */
export async function mergeSegments(sources: Segment[], path: string): Promise<number> {
  const from = sources[0].from
  const count = sources.reduce((n, s) => n + s.count, 0)
  const speakers: Speaker[] = []
  const byUid = new Map<string, number>()
  const parts: Part[] = []
  try {
    for (const seg of sources) {
      const map = new Uint32Array(seg.speakers.length)
      seg.speakers.forEach((s, i) => {
        let at = byUid.get(s.uid)
        if (at === undefined) {
          byUid.set(s.uid, at = speakers.length)
          speakers.push({ uid: s.uid, name: s.name, n: 0 })
        }
        speakers[at].n += s.n
        speakers[at].name = s.name
        map[i] = at
      })
      const f = seg.footer
      const fh = await open(seg.path, 'r')
      parts.push({ seg, fh, dict: new Reader(fh, f.dictAt, f.bktAt), post: new Reader(fh, f.postAt, f.dictAt), speakerMap: map })
    }
    const w = await SegmentWriter.create(path, from, count, speakers, idsFromOf(sources))
    try {
      for (const p of parts) await copyDocs(p, w)
      await w.beginTerms(sources.reduce((n, s) => n + s.footer.terms, 0))
      for (const p of parts) await nextHead(p)
      const varint = new ByteWriter(16)
      for (;;) {
        let min: Head | undefined
        for (const p of parts) if (p.head && (!min || p.head.hash < min.hash || (p.head.hash === min.hash && p.head.term < min.term))) min = p.head
        if (!min) break
        const { term, hash } = min
        const chunks: Uint8Array[] = []
        let df = 0
        let prev = -1
        for (const p of parts) {
          const h = p.head
          if (!h || h.hash !== hash || h.term !== term) continue
          await p.post.need(h.len)
          const bytes = p.post.take(h.len)
          // the first gap counted from this source's start becomes a gap from the previous part's last
          const r = { pos: 0 }
          const first = readVarint(bytes, r)
          varint.clear()
          varint.varint(p.seg.from - from + first - prev - 1)
          chunks.push(varint.view.slice(), bytes.slice(r.pos))
          df += h.df
          prev = p.seg.from - from + h.last
          await nextHead(p)
        }
        await w.term(term, hash, chunks, df, prev)
      }
      return await w.finish(sources.reduce((n, s) => n + s.totalLen, 0))
    } catch (e) {
      await w.abandon()
      throw e
    }
  } finally {
    await Promise.all(parts.map(p => p.fh.close().catch(() => {})))
  }
}

/**
 * From which message on the merged segment holds the ids as terms: the newest sources that hold all
 * of theirs, and the one before them from its own `idsFrom` (segments written before ids were terms
 * are the oldest; an id term before the result is not trusted).
 */
function idsFromOf(sources: Segment[]): number {
  let at = sources[sources.length - 1].idsFrom
  for (let i = sources.length - 2; i >= 0 && at === sources[i + 1].from; i--) at = sources[i].idsFrom
  return at
}

/** A source's documents and columns, its speakers renumbered. */
async function copyDocs(p: Part, w: SegmentWriter): Promise<void> {
  const { seg, fh } = p
  const cols = columnsAt(seg.count)
  const docs = new Reader(fh, seg.footer.docsAt, seg.footer.postAt)
  for (let a = 0; a < seg.count; a += DOCS_PIECE) {
    const b = Math.min(seg.count, a + DOCS_PIECE)
    const offs = new Float64Array(await readRegion(fh, cols.docOff + 8 * a, 8 * (b - a + 1)))
    const ats = new Uint32Array(await readRegion(fh, cols.at + 4 * a, 4 * (b - a)))
    const whos = new Uint32Array(await readRegion(fh, cols.who + 4 * a, 4 * (b - a)))
    for (let i = 0; i < b - a; i++) {
      const len = offs[i + 1] - offs[i]
      await docs.need(len)
      const who = p.speakerMap[whos[i]]
      if (who === undefined) throw new CorruptIndex(`${seg.path}: a message names speaker ${whos[i]}`)
      await w.doc(docs.take(len), ats[i], who)
    }
  }
}

async function readRegion(fh: FileHandle, pos: number, length: number): Promise<ArrayBuffer> {
  const out = new Uint8Array(length)
  for (let got = 0; got < length;) {
    const { bytesRead } = await fh.read(out, got, length - got, pos + got)
    if (!bytesRead) throw new CorruptIndex('a segment ended early')
    got += bytesRead
  }
  return out.buffer
}
