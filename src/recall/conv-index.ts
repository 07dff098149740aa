// The index of one conversation (docs/recall.md "Files"): immutable segments on disk, listed by
// `manifest.json`, and the newest messages in a live buffer whose text is also in `live.log`.
// Messages are numbered in history order from 0; segment i holds the numbers right after segment
// i-1's, the live buffer those after the last segment. When the live buffer is full it becomes a
// segment; when the newest segments are `mergeFactor` of the same size class they merge in the
// background. Everything that changes the files runs on one queue.
import { appendFile, mkdir, open, readdir, readFile, rm, truncate, type FileHandle } from 'node:fs/promises'
import { StringDecoder } from 'node:string_decoder'
import { basename, join } from 'node:path'
import type { QueryTerm } from './analyze'
import type { DateMatch } from './dates'
import { decodeDoc, encodeDoc, type RecallDoc } from './docs'
import { LiveBuffer } from './live'
import { rank, type RankResult } from './rank'
import { CorruptIndex, Segment } from './segment'
import { mergeSegments } from './segment-merge'
import { writeLive } from './segment-write'
import type { Source } from './source'
import { atomicWrite } from '../util/atomic-write'
import type { Logger } from '../util/logger'
import { SerialQueue } from '../util/serial-queue'
import { isMissing } from '../resources/fs-error'
import { BoundedSet } from '../util/bounded-set'

export interface IndexTuning {
  /** messages in the live buffer before it becomes a segment */
  liveMax: number
  /** segments of one size class that merge into one */
  mergeFactor: number
}

export const DEFAULT_TUNING: IndexTuning = { liveMax: 2048, mergeFactor: 4 }

const MANIFEST = 'manifest.json'
/** files of others in the folder (the vectors, vectors.ts) */
export const KEEP = ['vectors.bin', 'vectors.json']
const LOG = 'live.log'
/** keys of the newest messages, to skip a message the history gives twice (catch-up and append) */
const RECENT = 4096

interface Manifest {
  v: 1
  segments: { file: string; from: number; count: number }[]
}

class Stopped extends Error {}

export class ConvIndex {
  segments: Segment[] = []
  live = new LiveBuffer(0)
  /** a rebuild runs: searches see what it indexed so far rather than wait for it */
  rebuilding = false
  /** close() was called: a rebuild stops */
  private stopping = false
  private queue = new SerialQueue()
  private recent = new BoundedSet<string>(RECENT)
  private merging?: Promise<void>
  private closed = false
  private logFailed = false
  /** told when the index forgot everything (the vectors go with it) */
  wiped?: () => void
  /** counts wipes: a merge started before one does not report its failure */
  private generation = 0

  private constructor(readonly dir: string, private logger: Logger, private tuning: IndexTuning) {}

  /** Opens the files in `dir` (created when missing); a part that does not read is CorruptIndex. */
  static async open(dir: string, logger: Logger, tuning = DEFAULT_TUNING): Promise<ConvIndex> {
    const index = new ConvIndex(dir, logger, tuning)
    await mkdir(dir, { recursive: true })
    let manifest: Manifest = { v: 1, segments: [] }
    try {
      manifest = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8'))
      if (manifest?.v !== 1 || !Array.isArray(manifest.segments)) throw new CorruptIndex(`${dir}: unknown manifest`)
    } catch (e) {
      if (!isMissing(e)) throw e instanceof CorruptIndex ? e : new CorruptIndex(`${dir}: manifest: ${(e as Error)?.message ?? e}`)
    }
    let next = 0
    try {
      for (const m of manifest.segments) {
        const seg = Segment.open(join(dir, m.file))
        seg.release()
        index.segments.push(seg)
        if (seg.from !== next || seg.count !== m.count) throw new CorruptIndex(`${dir}/${m.file}: holds ${seg.from}+${seg.count}, expected ${next}+${m.count}`)
        next += seg.count
      }
    } catch (e) {
      index.segments.forEach(s => s.release())
      throw e
    }
    index.live = new LiveBuffer(next)
    await index.readLog()
    // files of a merge or a flush that a crash interrupted
    const known = new Set([MANIFEST, LOG, ...KEEP, ...index.segments.map(s => basename(s.path))])
    for (const name of await readdir(dir)) if (!known.has(name)) await rm(join(dir, name), { force: true, recursive: true })
    return index
  }

  /**
   * Reads the live log: lines `n<TAB>json`, or `<TAB>json` for the next number (appended while the
   * index was closed, `appendClosed`). A long log becomes segments as it is read; the log is then
   * written again with what stays live, before the manifest names the new segments. A torn last
   * line is cut off.
   */
  private async readLog(): Promise<void> {
    const path = join(this.dir, LOG)
    let fh: FileHandle
    try {
      fh = await open(path, 'r')
    } catch (e) {
      if (isMissing(e)) return
      throw e
    }
    const buf = Buffer.alloc(1 << 20)
    const decoder = new StringDecoder('utf8')
    let rest = ''
    let pos = 0
    let whole = 0
    let flushed = false
    try {
      for (;;) {
        const { bytesRead } = await fh.read(buf, 0, buf.length, pos)
        if (!bytesRead) break
        const nl = buf.lastIndexOf(10, bytesRead - 1)
        if (nl >= 0) whole = pos + nl + 1
        pos += bytesRead
        const lines = (rest + decoder.write(buf.subarray(0, bytesRead))).split('\n')
        rest = lines.pop()!
        for (const line of lines) {
          if (line) this.readLine(line)
          if (this.live.count >= this.tuning.liveMax) {
            await this.writeSegment()
            flushed = true
          }
        }
      }
    } finally {
      await fh.close()
    }
    if (flushed) {
      await atomicWrite(path, this.live.docs.map((d, i) => `${this.live.from + i}\t${encodeDoc(d)}\n`).join(''))
      await this.writeManifest()
    } else if (whole < pos) await truncate(path, whole)
  }

  private readLine(line: string): void {
    const tab = line.indexOf('\t')
    const n = tab > 0 ? Number(line.slice(0, tab)) : this.count
    if (n < this.live.from) return
    let doc: RecallDoc
    try {
      doc = decodeDoc(line.slice(tab + 1))
    } catch {
      throw new CorruptIndex(`${this.dir}/${LOG}: message ${n} is unreadable`)
    }
    if (n !== this.count) throw new CorruptIndex(`${this.dir}/${LOG}: message ${n} where ${this.count} was expected`)
    this.push(doc)
  }

  /** Appends messages to the log of an index that is not open; they are indexed when it opens. */
  static async appendClosed(dir: string, docs: RecallDoc[]): Promise<void> {
    const text = docs.map(d => `\t${encodeDoc(d)}\n`).join('')
    try {
      await appendFile(join(dir, LOG), text)
    } catch (e) {
      if (!isMissing(e)) throw e
      await mkdir(dir, { recursive: true })
      await appendFile(join(dir, LOG), text)
    }
  }

  /** Messages indexed. */
  get count(): number {
    return this.live.from + this.live.count
  }

  /** The history keys of the newest messages: the live buffer's, or the last one of the segments. */
  newestKeys(): string[] {
    if (this.live.count) return this.live.docs.map(d => d.k)
    const last = this.lastKey()
    return last === undefined ? [] : [last]
  }

  /** The history key of the newest message indexed. */
  lastKey(): string | undefined {
    if (this.live.count) return this.live.docs[this.live.count - 1].k
    const seg = this.segments.at(-1)
    if (!seg) return undefined
    try {
      return seg.doc(seg.count - 1).k
    } finally {
      seg.release()
    }
  }

  /** Resolves when everything queued so far is done. */
  idle(): Promise<void> {
    return this.queue.idle()
  }

  private push(doc: RecallDoc): void {
    this.live.add(doc)
    this.recent.add(doc.k)
  }

  /** Indexes messages in order (one the index already has is skipped); `log: false` while rebuilding. */
  add(docs: RecallDoc[]): Promise<void> {
    return this.queue.run(() => this.addNow(docs, true))
  }

  private async addNow(docs: RecallDoc[], log: boolean): Promise<void> {
    const lines: string[] = []
    for (const doc of docs) {
      if (this.closed || this.recent.has(doc.k)) continue
      if (log) lines.push(`${this.count}\t${encodeDoc(doc)}\n`)
      this.push(doc)
      if (this.live.count >= this.tuning.liveMax) {
        await this.appendLog(lines.splice(0))
        await this.flush()
      }
    }
    await this.appendLog(lines)
  }

  private async appendLog(lines: string[]): Promise<void> {
    if (!lines.length) return
    try {
      await appendFile(join(this.dir, LOG), lines.join(''))
      this.logFailed = false
    } catch (e: any) {
      // the messages stay searchable; a restart finds them again in the history
      if (!this.logFailed) {
        this.logger.warn('recall: %s could not be written (%s); messages since are indexed in memory only', join(this.dir, LOG), e?.code ?? e?.message ?? e)
      }
      this.logFailed = true
    }
  }

  /** The live buffer becomes a segment; the log starts again. */
  private async flush(): Promise<void> {
    if (!this.live.count) return
    await this.writeSegment()
    await this.writeManifest()
    await truncate(join(this.dir, LOG), 0).catch(e => { if (!isMissing(e)) throw e })
    this.maybeMerge()
  }

  /** The live buffer as a segment file, listed in memory (the manifest is the caller's). */
  private async writeSegment(): Promise<void> {
    const live = this.live
    const file = `s${live.from}-${live.from + live.count}.seg`
    await writeLive(live, join(this.dir, file))
    const seg = Segment.open(join(this.dir, file))
    seg.release()
    this.segments.push(seg)
    this.live = new LiveBuffer(live.from + live.count)
  }

  private writeManifest(): Promise<void> {
    const m: Manifest = { v: 1, segments: this.segments.map(s => ({ file: s.path.slice(this.dir.length + 1), from: s.from, count: s.count })) }
    return atomicWrite(join(this.dir, MANIFEST), JSON.stringify(m) + '\n')
  }

  private sizeClass(count: number): number {
    return count <= this.tuning.liveMax ? 0 : Math.floor(Math.log(count / this.tuning.liveMax) / Math.log(this.tuning.mergeFactor) + 1e-9)
  }

  /** Merges `mergeFactor` consecutive segments of one size class, in the background. */
  private maybeMerge(): void {
    if (this.merging || this.closed) return
    const segs = this.segments
    const f = this.tuning.mergeFactor
    let at = -1
    for (let i = 0; i + f <= segs.length && at < 0; i++) {
      const cls = this.sizeClass(segs[i].count)
      if (segs.slice(i, i + f).every(s => this.sizeClass(s.count) === cls)) at = i
    }
    if (at < 0) return
    const run = segs.slice(at, at + f)
    const file = `m${run[0].from}-${run[f - 1].from + run[f - 1].count}.seg`
    const generation = this.generation
    this.merging = (async () => {
      try {
        await mergeSegments(run, join(this.dir, file))
        await this.queue.run(async () => {
          const i = this.segments.indexOf(run[0])
          const stale = this.closed || generation !== this.generation || i < 0 || run.some((s, k) => this.segments[i + k] !== s)
          if (stale) return rm(join(this.dir, file), { force: true })
          const seg = Segment.open(join(this.dir, file))
          seg.release()
          this.segments.splice(i, f, seg)
          await this.writeManifest()
          for (const s of run) await rm(s.path, { force: true })
        })
      } catch (e: any) {
        // a wipe under a running merge takes its files away: not a failure
        if (generation === this.generation) this.logger.warn('recall: segments of %s could not be merged: %s', this.dir, e?.message ?? e)
        await rm(join(this.dir, file), { force: true }).catch(() => {})
        return
      } finally {
        this.merging = undefined
      }
      this.maybeMerge()
    })()
  }

  /** Resolves when no merge runs (tests, the benchmark). */
  async merged(): Promise<void> {
    while (this.merging) await this.merging
  }

  private sources(): Source[] {
    return [...this.segments, this.live].filter(s => s.count)
  }

  /** Ranks the messages for a query (synchronous: segments are read while nothing changes them). */
  search(terms: QueryTerm[], o: { limit: number; dates?: DateMatch[] }): RankResult {
    const sources = this.sources()
    try {
      return rank(sources, terms, o)
    } finally {
      sources.forEach(s => s.release())
    }
  }

  /** Messages a..b-1 (as many as exist). */
  docs(a: number, b: number): RecallDoc[] {
    const out: RecallDoc[] = []
    const sources = this.sources()
    try {
      for (let n = Math.max(0, a); n < Math.min(b, this.count); n++) {
        const s = sources.find(x => n >= x.from && n < x.from + x.count)!
        out.push(s.doc(n - s.from))
      }
    } finally {
      sources.forEach(s => s.release())
    }
    return out
  }

  /** Forgets everything and indexes the history again through `scan` (a missing or unreadable index, a gap). */
  rebuild(scan: (add: (docs: RecallDoc[]) => Promise<void>) => Promise<void>): Promise<void> {
    this.rebuilding = true
    return this.queue.run(async () => {
      try {
        await this.wipe()
        await scan(docs => {
          // closing stops a long rebuild; the next open finds the index behind and starts again
          if (this.stopping) throw new Stopped()
          return this.addNow(docs, false)
        })
        await this.appendLog(this.live.docs.map((d, i) => `${this.live.from + i}\t${encodeDoc(d)}\n`))
      } catch (e) {
        if (!(e instanceof Stopped)) throw e
      } finally {
        this.rebuilding = false
      }
    })
  }

  /** Forgets everything (a reset of the conversation). */
  clear(): Promise<void> {
    return this.queue.run(() => this.wipe())
  }

  private async wipe(): Promise<void> {
    // a running merge finds its segments gone and drops its result
    this.generation++
    this.segments.forEach(s => s.release())
    this.segments = []
    this.live = new LiveBuffer(0)
    this.recent.clear()
    for (const name of await readdir(this.dir).catch(() => [] as string[])) await rm(join(this.dir, name), { force: true, recursive: true })
    await this.writeManifest()
    this.wiped?.()
  }

  /** Waits for queued work and a running merge; nothing is written after. */
  async close(): Promise<void> {
    this.stopping = true
    await this.queue.idle()
    this.closed = true
    await this.merged()
    this.segments.forEach(s => s.release())
  }
}
