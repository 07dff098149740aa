// Append-only JSONL history of one conversation (SPEC §2). One entry per line; a torn last line
// (a crash mid-append) is skipped with a warning on load. Appends that queue up while a write is
// in flight go out together in one write through a handle kept open while the store is busy.
import { mkdir, open, rename, stat, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Entry, Logger } from './types'
import { SerialQueue } from '../util/serial-queue'
import { isMissing } from '../resources/fs-error'
import { systemClock, type Clock, type Timer } from '../util/clock'

/** An idle store closes its file after this long; a bot with many quiet channels holds few fds. */
const IDLE_CLOSE_MS = 5000
const TAIL_CHUNK = 256 * 1024

export class HistoryStore {
  private queue = new SerialQueue()
  private pending: string[] = []
  private waiting?: Promise<void>
  private handle?: FileHandle
  private idleTimer?: Timer

  constructor(readonly path: string, private logger: Logger, private clock: Clock = systemClock) {}

  /** The whole history (tests, tools); a conversation loads only its tail. */
  async load(): Promise<Entry[]> {
    return (await this.loadTail(Infinity)).entries
  }

  /**
   * The last `maxEntries` entries, read backwards in chunks so a long history does not have to be
   * read whole; `more` says older entries exist on disk.
   */
  async loadTail(maxEntries: number): Promise<{ entries: Entry[]; more: boolean }> {
    let fh: FileHandle
    try {
      fh = await open(this.path, 'r')
    } catch (e: any) {
      if (isMissing(e)) return { entries: [], more: false }
      throw e
    }
    try {
      const size = (await fh.stat()).size
      const lines: Buffer[] = []
      let pos = size
      let rest = Buffer.alloc(0)
      while (pos > 0 && lines.length <= maxEntries) {
        const len = Math.min(TAIL_CHUNK, pos)
        pos -= len
        const chunk = Buffer.alloc(len)
        await fh.read(chunk, 0, len, pos)
        let buf = Buffer.concat([chunk, rest])
        for (let nl = buf.lastIndexOf(10); nl !== -1 && lines.length <= maxEntries; nl = buf.lastIndexOf(10)) {
          lines.push(buf.subarray(nl + 1))
          buf = buf.subarray(0, nl)
        }
        rest = buf
      }
      // The file's first line: whole once the read reached offset 0 and the count left room.
      const complete = pos === 0 && lines.length <= maxEntries
      if (complete && rest.length) lines.push(rest)
      const torn = size > 0 && !(await this.endsWithNewline(fh, size))
      // A torn last line without a newline would glue the next append onto it.
      if (torn) this.pending.push('\n')
      const entries: Entry[] = []
      lines.reverse().forEach((line, i) => {
        const text = line.toString('utf8')
        if (!text.trim()) return
        try {
          entries.push(JSON.parse(text))
        } catch {
          const last = i === lines.length - 1
          this.logger.warn('%s: skipped %s of the history (not valid JSON)', this.path, last && torn ? 'a torn last line' : 'a broken line')
        }
      })
      return { entries: entries.slice(-maxEntries), more: !complete || entries.length > maxEntries }
    } finally {
      await fh.close()
    }
  }

  private async endsWithNewline(fh: FileHandle, size: number): Promise<boolean> {
    const last = Buffer.alloc(1)
    await fh.read(last, 0, 1, size - 1)
    return last[0] === 10
  }

  append(entries: Entry[]): Promise<void> {
    if (!entries.length) return Promise.resolve()
    this.pending.push(entries.map(e => JSON.stringify(e)).join('\n') + '\n')
    // Everything queued before the write starts goes out with it.
    this.waiting ??= this.queue.run(async () => {
      this.waiting = undefined
      const data = this.pending.join('')
      this.pending = []
      await this.write(data)
    })
    return this.waiting
  }

  private async write(data: string): Promise<void> {
    if (!this.handle) {
      await mkdir(dirname(this.path), { recursive: true })
      this.handle = await open(this.path, 'a')
    }
    await this.handle.write(data)
    this.idleTimer?.cancel()
    this.idleTimer = this.clock.setTimeout(() => { this.queue.run(() => this.close()) }, IDLE_CLOSE_MS).unref()
  }

  private async close(): Promise<void> {
    this.idleTimer?.cancel()
    this.idleTimer = undefined
    const h = this.handle
    this.handle = undefined
    await h?.close()
  }

  /** Forgets the history by moving it aside (kotodama.reset); nothing is deleted. */
  reset(): Promise<string | undefined> {
    return this.queue.run(async () => {
      await this.close()
      try {
        await stat(this.path)
      } catch {
        return undefined
      }
      const aside = this.path.replace(/\.jsonl$/, '') + `.reset-${this.clock.now()}.jsonl`
      await rename(this.path, aside)
      return aside
    })
  }

  /** Resolves when everything appended so far is written, and closes the file. */
  async flushed(): Promise<void> {
    await this.queue.idle()
    await this.queue.run(() => this.close())
  }
}
