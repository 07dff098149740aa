// The index of one conversation (docs/recall.md "Files"): immutable segments on disk, listed by
// the manifest (manifest.ts), and the newest messages in a live buffer whose text is also in the
// live log (live-log.ts). Messages are numbered in history order from 0; segment i holds the
// numbers right after segment i-1's, the live buffer those after the last segment. When the live
// buffer is full (messages, terms or text: merge-policy.ts) it becomes a segment; segments merge
// in the background (segment-merger.ts). Everything that changes the files runs on one queue, and
// nothing is queued once the index closes.
import { mkdir, readdir, rm } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { QueryTerm } from './analyze'
import type { DateMatch } from './dates'
import { decodeDoc, type RecallDoc } from './docs'
import { LiveBuffer } from './live'
import { appendLog, clearLog, cutLog, LOG, logLine, readLog, rewriteLog } from './live-log'
import { MANIFEST, readSegments, writeManifest } from './manifest'
import { DEFAULT_TUNING, type IndexTuning } from './merge-policy'
import { rank, type RankResult } from './rank'
import { CorruptIndex, Segment } from './segment'
import { SegmentMerger } from './segment-merger'
import { writeLive } from './segment-write'
import { MessageIds } from './message-ids'
import type { Source } from './source'
import type { Logger } from '../util/logger'
import { SerialQueue } from '../util/serial-queue'
import { BoundedSet } from '../util/bounded-set'

export { DEFAULT_TUNING, type IndexTuning }

/** files of others in the folder (the vectors, vectors.ts) */
export const KEEP = ['vectors.bin', 'vectors.json']
/** keys of the newest messages, to skip a message the history gives twice (catch-up and append) */
const RECENT = 4096

class Stopped extends Error {}

export class ConvIndex {
  segments: Segment[] = []
  live = new LiveBuffer(0)
  /** a rebuild runs: searches see what it indexed so far rather than wait for it */
  rebuilding = false
  /** close() was called: nothing more is queued, a rebuild stops */
  private closing = false
  private queue = new SerialQueue()
  private recent = new BoundedSet<string>(RECENT)
  private merger: SegmentMerger
  private ids = new MessageIds()
  private logFailed = false
  /** told when the index forgot everything (the vectors go with it) */
  wiped?: () => void

  private constructor(readonly dir: string, private logger: Logger, private tuning: IndexTuning) {
    this.merger = new SegmentMerger(this, dir, tuning, logger)
  }

  /** Opens the files in `dir` (created when missing); a part that does not read is CorruptIndex. */
  static async open(dir: string, logger: Logger, tuning: Partial<IndexTuning> = {}): Promise<ConvIndex> {
    const index = new ConvIndex(dir, logger, { ...DEFAULT_TUNING, ...tuning })
    await mkdir(dir, { recursive: true })
    index.segments = await readSegments(dir)
    const last = index.segments.at(-1)
    index.live = new LiveBuffer(last ? last.from + last.count : 0)
    await index.readLiveLog()
    // files of a merge or a flush that a crash interrupted
    const known = new Set([MANIFEST, LOG, ...KEEP, ...index.segments.map(s => basename(s.path))])
    for (const name of await readdir(dir)) if (!known.has(name)) await rm(join(dir, name), { force: true, recursive: true })
    return index
  }

  /**
   * Reads the live log. A long log becomes segments as it is read; the log is then written again
   * with what stays live, before the manifest names the new segments. A torn last line is cut off.
   */
  private async readLiveLog(): Promise<void> {
    let flushed = false
    const read = await readLog(this.dir, async line => {
      this.readLine(line)
      if (!this.full()) return
      await this.writeSegment()
      flushed = true
    })
    if (flushed) {
      await rewriteLog(this.dir, this.liveLines())
      await writeManifest(this.dir, this.segments)
    } else if (read && read.whole < read.end) await cutLog(this.dir, read.whole)
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

  /**
   * Appends messages to the log of an index that is not open; they are indexed when it opens.
   * False when its folder is gone: nothing is made (the history still has them).
   */
  static appendClosed(dir: string, docs: RecallDoc[]): Promise<boolean> {
    return appendLog(dir, docs.map(d => logLine(d)))
  }

  /** Messages indexed. */
  get count(): number {
    return this.live.from + this.live.count
  }

  /** The number of the newest message whose platform id is `id` (message-ids.ts). */
  numberOf(id: string): number | undefined {
    return this.ids.find(this.live, this.segments, id)
  }

  /** Resolves when everything queued so far is done. */
  idle(): Promise<void> {
    return this.queue.idle()
  }

  /** Runs a change of the files on the queue; refused (nothing done) once the index closes. */
  private change(task: () => Promise<void>): Promise<void> {
    return this.closing ? Promise.resolve() : this.queue.run(task)
  }

  private push(doc: RecallDoc): void {
    this.live.add(doc)
    this.recent.add(doc.k)
  }

  /** The live buffer holds a segment's worth: messages, distinct terms (its memory) or text. */
  private full(): boolean {
    const { live, tuning: t } = this
    return live.count >= t.liveMax || live.terms >= t.liveTerms || live.chars >= t.liveChars
  }

  private liveLines(): string[] {
    return this.live.docs.map((d, i) => logLine(d, this.live.from + i))
  }

  /** Indexes messages in order (one the index already has is skipped). */
  add(docs: RecallDoc[]): Promise<void> {
    return this.change(() => this.addNow(docs, true))
  }

  /** `log: false` while rebuilding (the log is written once at the end). */
  private async addNow(docs: RecallDoc[], log: boolean): Promise<void> {
    const lines: string[] = []
    for (const doc of docs) {
      if (this.recent.has(doc.k)) continue
      if (log) lines.push(logLine(doc, this.count))
      this.push(doc)
      if (this.full()) {
        await this.writeLines(lines.splice(0))
        await this.flush()
      }
    }
    await this.writeLines(lines)
  }

  private async writeLines(lines: string[]): Promise<void> {
    let problem: string | undefined
    try {
      if (!await appendLog(this.dir, lines)) problem = 'its folder is gone'
    } catch (e: any) {
      problem = e?.code ?? e?.message ?? String(e)
    }
    // the messages stay searchable; a restart finds them again in the history
    if (problem && !this.logFailed) {
      this.logger.warn('recall: %s could not be written (%s); messages since are indexed in memory only', join(this.dir, LOG), problem)
    }
    this.logFailed = !!problem
  }

  /** The live buffer becomes a segment; the log starts again. */
  private async flush(): Promise<void> {
    if (!this.live.count) return
    await this.writeSegment()
    await writeManifest(this.dir, this.segments)
    await clearLog(this.dir)
    this.merger.maybeMerge()
  }

  /** The live buffer as a segment file, listed in memory (the manifest is the caller's). */
  private async writeSegment(): Promise<void> {
    const live = this.live
    const file = join(this.dir, `s${live.from}-${live.from + live.count}.seg`)
    await writeLive(live, file)
    const seg = Segment.open(file)
    seg.release()
    this.segments.push(seg)
    this.live = new LiveBuffer(live.from + live.count)
  }

  /** Runs `task` (a merge's result replacing its segments) on the queue, unless the index closed. */
  replace(task: () => Promise<void>): Promise<void> {
    return this.change(task)
  }

  /** Resolves when no merge runs (tests, the benchmark). */
  merged(): Promise<void> {
    return this.merger.merged()
  }

  private sources(): Source[] {
    return [...this.segments, this.live].filter(s => s.count)
  }

  /** Ranks the messages for a query (synchronous: segments are read while nothing changes them). */
  search(terms: QueryTerm[], o: { limit: number; dates?: DateMatch[]; zone?: string }): RankResult {
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
    if (this.closing) return Promise.resolve()
    this.rebuilding = true
    return this.queue.run(async () => {
      try {
        await this.wipe()
        await scan(docs => {
          // closing stops a long rebuild; the next open finds the index behind and starts again
          if (this.closing) throw new Stopped()
          return this.addNow(docs, false)
        })
        await this.writeLines(this.liveLines())
      } catch (e) {
        if (!(e instanceof Stopped)) throw e
      } finally {
        this.rebuilding = false
      }
    })
  }

  /** Forgets everything (a reset of the conversation). */
  clear(): Promise<void> {
    return this.change(() => this.wipe())
  }

  private async wipe(): Promise<void> {
    // a running merge finds its segments gone and drops its result
    this.merger.forget()
    this.segments.forEach(s => s.release())
    this.segments = []
    this.live = new LiveBuffer(0)
    this.recent.clear()
    this.ids.forget()
    for (const name of await readdir(this.dir).catch(() => [] as string[])) await rm(join(this.dir, name), { force: true, recursive: true })
    await writeManifest(this.dir, this.segments)
    this.wiped?.()
  }

  /** Refuses new work at once, then waits for queued work and a running merge; nothing is written after. */
  async close(): Promise<void> {
    this.closing = true
    await this.queue.idle()
    await this.merger.merged()
    this.segments.forEach(s => s.release())
  }

  /** close() was called. */
  get closed(): boolean {
    return this.closing
  }
}
