// Append-only JSONL history of one conversation (SPEC §2). One entry per line; a torn last line
// (a crash mid-append) is skipped with a warning on load. Appends that queue up while a write is
// in flight go out together in one write through a handle kept open while the store is busy.
import { mkdir, open, readFile, rename, stat, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Entry, Logger } from './types'
import { SerialQueue } from '../util/serial-queue'

/** An idle store closes its file after this long; a bot with many quiet channels holds few fds. */
const IDLE_CLOSE_MS = 5000
const realSetTimeout = globalThis.setTimeout
const realClearTimeout = globalThis.clearTimeout

export class HistoryStore {
  private queue = new SerialQueue()
  private pending: string[] = []
  private waiting?: Promise<void>
  private handle?: FileHandle
  private idleTimer?: ReturnType<typeof setTimeout>

  constructor(readonly path: string, private logger: Logger) {}

  async load(): Promise<Entry[]> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (e: any) {
      if (e.code === 'ENOENT') return []
      throw e
    }
    const entries: Entry[] = []
    const lines = text.split('\n')
    lines.forEach((line, i) => {
      if (!line.trim()) return
      try {
        entries.push(JSON.parse(line))
      } catch {
        const last = i >= lines.length - 2
        this.logger.warn('%s: skipped %s (line %d of the history is not valid JSON)', this.path, last ? 'a torn last line' : 'a broken line', i + 1)
      }
    })
    // A torn last line without a newline would glue the next append onto it.
    if (text && !text.endsWith('\n')) this.pending.push('\n')
    return entries
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
    if (this.idleTimer) realClearTimeout(this.idleTimer)
    this.idleTimer = realSetTimeout(() => { this.queue.run(() => this.close()) }, IDLE_CLOSE_MS)
    this.idleTimer.unref?.()
  }

  private async close(): Promise<void> {
    if (this.idleTimer) realClearTimeout(this.idleTimer)
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
      const aside = this.path.replace(/\.jsonl$/, '') + `.reset-${Date.now()}.jsonl`
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
