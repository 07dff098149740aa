// Append-only JSONL history of one conversation (SPEC §2, §10). One entry per line. Lines that are
// not entries (a torn last line after a crash, broken JSON, the wrong shape) are skipped with a
// warning naming the file and line. A short or failed append is repaired before the next one: the
// file is cut back to its last complete line and the unwritten entries are kept and written again,
// so no entry is ever glued to a fragment. Appends that queue up while a write is in flight go
// out together in one write through a handle kept open while the store is busy.
import { mkdir, open, rename, stat, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Entry } from './entries'
import type { Logger } from '../util/logger'
import { SerialQueue } from '../util/serial-queue'
import { isMissing } from '../resources/fs-error'
import { systemClock, type Clock, type Timer } from '../util/clock'
import { WriteBehind } from './write-behind'
import { entryProblem } from './entry-shape'
import { pairCalls } from './pair-calls'
import { readTailLines } from './tail-lines'
import type { DescriptorBudget, Parkable } from '../util/descriptor-budget'
import type { HistoryBackend } from './backend'
import { BoundedSet } from '../util/bounded-set'

/** An idle store closes its file after this long; a bot with many quiet channels holds few fds. */
const IDLE_CLOSE_MS = 5000

const madeFolders = new BoundedSet<string>(1024)

async function makeFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true })
  madeFolders.add(dir)
}

export class HistoryStore implements HistoryBackend, Parkable {
  private queue = new SerialQueue()
  /** serialized entries not yet on disk, oldest first; coalesced and retried */
  private writes: WriteBehind<string>
  private handle?: FileHandle
  /** the file's size as this store last wrote or repaired it */
  private size = 0
  private idleTimer?: Timer

  /**
   * `budget` caps the descriptors of all stores of the process; without one each store opens freely.
   * `readOnly` (the console reading a history no runtime has loaded): the file is never changed,
   * and a torn last line is left out silently, as it may be a write in flight.
   */
  constructor(readonly path: string, private logger: Logger, private clock: Clock = systemClock, private budget?: DescriptorBudget, private readOnly = false) {
    this.writes = new WriteBehind({
      queue: this.queue, clock, logger, where: () => this.path, medium: 'disk',
      write: async (pending, count) => {
        await this.write(Buffer.from(pending.slice(0, count).join(''), 'utf8'))
        pending.splice(0, count)
      },
    })
  }

  get where(): string {
    return this.path
  }

  /** The whole history (tests, tools); a conversation loads only its tail. */
  async load(): Promise<Entry[]> {
    return (await this.loadTail(Infinity)).entries
  }

  get stuck(): boolean {
    return this.writes.failing
  }

  async storedBytes(): Promise<number> {
    return (await stat(this.path).catch(() => ({ size: 0 }))).size
  }

  /** Entries appended but not yet written (a full disk, a read-only home). */
  get unwritten(): number {
    return this.writes.pending.length
  }

  /**
   * The last `maxEntries` entries, read backwards in chunks so a long history does not have to be
   * read whole; `more` says older entries exist on disk.
   */
  async loadTail(maxEntries: number): Promise<{ entries: Entry[]; more: boolean }> {
    await this.budget?.take()
    try {
      return await this.readTail(maxEntries)
    } finally {
      this.budget?.give()
    }
  }

  private async readTail(maxEntries: number): Promise<{ entries: Entry[]; more: boolean }> {
    let fh: FileHandle
    try {
      fh = await open(this.path, 'r')
    } catch (e: any) {
      if (isMissing(e)) return { entries: [], more: false }
      throw e
    }
    try {
      const { lines, complete, torn, size, firstLine } = await readTailLines(fh, maxEntries)
      if (torn && !this.readOnly) await this.repairTorn(size, lines[lines.length - 1] ?? Buffer.alloc(0))
      const entries: Entry[] = []
      const ids = new Set<string>()
      for (let i = 0; i < lines.length; i++) {
        const text = lines[i].toString('utf8')
        if (!text.trim()) continue
        let problem: string | undefined
        try {
          const value = JSON.parse(text)
          problem = entryProblem(value)
          const fixed = !problem && value.type === 'step' ? pairCalls(value, ids) : undefined
          if (fixed) this.logger.warn('%s:%d: repaired a step of the history (%s)', this.path, await firstLine() + i, fixed.problem)
          if (!problem && (!fixed || fixed.entry)) entries.push(fixed?.entry ?? value)
        } catch {
          if (i === lines.length - 1 && torn && this.readOnly) continue
          problem = i === lines.length - 1 && torn ? 'a torn last line, cut off' : 'not valid JSON'
        }
        if (problem) this.logger.warn('%s:%d: skipped a line of the history (%s)', this.path, await firstLine() + i, problem)
      }
      return { entries: entries.slice(-maxEntries), more: !complete || entries.length > maxEntries }
    } finally {
      await fh.close()
    }
  }

  /**
   * A last line without its newline (a crash mid-append) is cut off, so the next append starts
   * clean; a whole entry that only lacks its newline is kept and gets one.
   */
  private async repairTorn(size: number, last: Buffer): Promise<void> {
    let whole = false
    try {
      whole = !entryProblem(JSON.parse(last.toString('utf8')))
    } catch {}
    if (whole) {
      this.writes.pending.unshift('\n')
      return
    }
    const cut = size - last.length
    try {
      const fh = await open(this.path, 'r+')
      try {
        await fh.truncate(cut)
      } finally {
        await fh.close()
      }
    } catch {
      // a read-only home: at least never glue the next entry onto the fragment
      this.writes.pending.unshift('\n')
    }
  }

  append(entries: Entry[]): Promise<void> {
    if (this.readOnly) return Promise.reject(new Error(`${this.path} is open only for reading`))
    if (!entries.length) return Promise.resolve()
    return this.writes.push([entries.map(e => JSON.stringify(e)).join('\n') + '\n'])
  }

  /** One write of whole lines at the end of the file; on a short or failed write the file is cut back. */
  private async write(data: Buffer): Promise<void> {
    if (this.handle) this.budget?.unpark(this)
    else await this.openForAppend()
    const before = this.size
    let written = 0
    try {
      while (written < data.length) {
        const { bytesWritten } = await this.handle.write(data, written, data.length - written)
        if (!bytesWritten) throw Object.assign(new Error('the disk took no more bytes'), { code: 'ENOSPC' })
        written += bytesWritten
      }
    } catch (e) {
      if (written > 0) await this.cutBack(before)
      throw e
    }
    this.size = before + written
    this.idleTimer?.cancel()
    this.idleTimer = this.clock.setTimeout(() => { this.queue.run(() => this.close()) }, IDLE_CLOSE_MS).unref()
    this.budget?.park(this)
  }

  private async openForAppend(): Promise<void> {
    const dir = dirname(this.path)
    // once per folder, not per file: 1,000 new conversations at once made 1,000 recursive mkdirs
    if (!madeFolders.has(dir)) await makeFolder(dir)
    await this.budget?.take()
    let handle: FileHandle
    try {
      // a folder removed since is made again
      handle = await open(this.path, 'a').catch(async (e) => {
        if (!isMissing(e)) throw e
        await makeFolder(dir)
        return open(this.path, 'a')
      })
      this.size = (await handle.stat()).size
    } catch (e) {
      await handle?.close().catch(() => {})
      this.budget?.give()
      throw e
    }
    this.handle = handle
  }

  /** The budget needs this store's slot: the idle file closes after any write already queued. */
  evict(): void {
    this.queue.run(() => this.close()).catch(() => {})
  }

  private async cutBack(size: number): Promise<void> {
    try {
      await this.handle.truncate(size)
    } catch (e: any) {
      // the fragment stays; a newline first keeps the next line whole
      this.logger.error('%s: could not cut a partly written line (%s)', this.path, e?.code ?? e?.message ?? e)
      this.writes.pending.unshift('\n')
      await this.close()
    }
  }

  private async close(): Promise<void> {
    this.idleTimer?.cancel()
    this.idleTimer = undefined
    const h = this.handle
    if (!h) return
    this.handle = undefined
    this.budget?.unpark(this)
    try {
      await h.close()
    } finally {
      this.budget?.give()
    }
  }

  /** Forgets the history by moving it aside (kotodama.reset, migration); nothing is deleted. */
  reset(why = 'reset'): Promise<string | undefined> {
    return this.queue.run(async () => {
      await this.close()
      this.writes.pending = []
      try {
        await stat(this.path)
      } catch {
        return undefined
      }
      const aside = this.path.replace(/\.jsonl$/, '') + `.${why}-${this.clock.now()}.jsonl`
      await rename(this.path, aside)
      return aside
    })
  }

  /** Resolves when every write queued so far has been tried. */
  idle(): Promise<void> {
    return this.queue.idle()
  }

  /** Resolves when everything appended so far was written (or could not be), and closes the file. */
  async flushed(): Promise<void> {
    await this.writes.flushed()
    await this.queue.run(() => this.close())
  }
}
