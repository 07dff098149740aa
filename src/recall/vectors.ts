// A conversation's message vectors (recall.embeddingModel; docs/recall.md "Vectors"), beside its
// index: `vectors.bin` holds one record per message in message order (the first `count` messages
// have one), `vectors.json` says which model made them, their size and count. A record is the
// vector quantised to bytes: f32 scale, f32 norm, int8 × dims (a 1536-dimension vector takes
// 1,544 bytes instead of 6,144). A search reads the file front to back in pieces and keeps the
// best few, so memory does not grow with the conversation.
import { open, readFile, rm, truncate } from 'node:fs/promises'
import { join } from 'node:path'
import { atomicWrite } from '../util/atomic-write'
import { isMissing } from '../resources/fs-error'

const BIN = 'vectors.bin'
const META = 'vectors.json'
/** records read at once while searching */
const PIECE = 4096

interface Meta {
  model: string
  dims: number
  count: number
}

export interface VectorHit {
  n: number
  score: number
}

export class VectorStore {
  count = 0
  dims = 0
  /** counts resets: vectors computed before one belong to nothing */
  generation = 0

  constructor(readonly dir: string, readonly model: string) {}

  /** Reads what was stored; vectors of another model, or a file that does not match, are dropped. */
  async load(): Promise<void> {
    try {
      const meta = JSON.parse(await readFile(join(this.dir, META), 'utf8')) as Meta
      const size = await open(join(this.dir, BIN), 'r').then(async fh => { try { return (await fh.stat()).size } finally { await fh.close() } })
      if (meta.model === this.model && meta.dims > 0 && size >= meta.count * (8 + meta.dims)) {
        this.count = meta.count
        this.dims = meta.dims
        if (size > meta.count * (8 + meta.dims)) await truncate(join(this.dir, BIN), meta.count * (8 + meta.dims))
        return
      }
    } catch (e) {
      if (!isMissing(e) && !(e instanceof SyntaxError)) throw e
    }
    await this.reset()
  }

  async reset(): Promise<void> {
    this.generation++
    this.count = 0
    this.dims = 0
    await rm(join(this.dir, BIN), { force: true })
    await rm(join(this.dir, META), { force: true })
  }

  /** Appends the vectors of messages count..count+n-1. */
  async append(vectors: number[][]): Promise<void> {
    if (!vectors.length) return
    const dims = this.dims || vectors[0].length
    const record = 8 + dims
    const out = new Uint8Array(record * vectors.length)
    const view = new DataView(out.buffer)
    vectors.forEach((v, i) => {
      if (v.length !== dims) throw new Error(`the embeddings model returned ${v.length} dimensions, expected ${dims}`)
      let max = 0
      for (const x of v) max = Math.max(max, Math.abs(x))
      const scale = max / 127 || 1
      let norm = 0
      const at = i * record
      for (let d = 0; d < dims; d++) {
        const q = Math.round(v[d] / scale)
        view.setInt8(at + 8 + d, q)
        norm += q * q
      }
      view.setFloat32(at, scale, true)
      view.setFloat32(at + 4, Math.sqrt(norm) || 1, true)
    })
    const fh = await open(join(this.dir, BIN), 'a')
    try {
      await fh.write(out, 0, out.length, this.count * record)
    } finally {
      await fh.close()
    }
    this.dims = dims
    this.count += vectors.length
    await atomicWrite(join(this.dir, META), JSON.stringify({ model: this.model, dims, count: this.count } satisfies Meta) + '\n')
  }

  /** The `k` messages whose vectors are nearest the query's (cosine). */
  async search(query: number[], k: number): Promise<VectorHit[]> {
    if (!this.count || query.length !== this.dims) return []
    let qn = 0
    for (const x of query) qn += x * x
    qn = Math.sqrt(qn) || 1
    const q = Float32Array.from(query, x => x / qn)
    const record = 8 + this.dims
    const best: VectorHit[] = []
    const fh = await open(join(this.dir, BIN), 'r')
    try {
      const buf = new Uint8Array(record * PIECE)
      const bytes = new Int8Array(buf.buffer)
      const view = new DataView(buf.buffer)
      for (let first = 0; first < this.count; first += PIECE) {
        const n = Math.min(PIECE, this.count - first)
        const { bytesRead } = await fh.read(buf, 0, n * record, first * record)
        for (let i = 0; i < Math.floor(bytesRead / record); i++) {
          const at = i * record
          let dot = 0
          for (let d = 0; d < this.dims; d++) dot += bytes[at + 8 + d] * q[d]
          const score = dot / view.getFloat32(at + 4, true)
          if (best.length < k || score > best[best.length - 1].score) {
            best.push({ n: first + i, score })
            best.sort((a, b) => b.score - a.score || b.n - a.n)
            if (best.length > k) best.pop()
          }
        }
      }
    } finally {
      await fh.close()
    }
    return best
  }
}
