// Append-only JSONL history of one conversation (SPEC §2). One entry per line; a torn last line
// (a crash mid-append) is skipped with a warning on load.
import { appendFile, mkdir, readFile, rename, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Entry, Logger } from './types'
import { SerialQueue } from '../util/serial-queue'

export class HistoryStore {
  private queue = new SerialQueue()

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
        this.logger.warn('%s: skipped %s line %d of the history (not valid JSON)', this.path, last ? 'a torn last' : 'a broken', i + 1)
      }
    })
    // A torn last line without a newline would glue the next append onto it.
    if (text && !text.endsWith('\n')) await this.queue.run(() => appendFile(this.path, '\n'))
    return entries
  }

  append(entries: Entry[]): Promise<void> {
    if (!entries.length) return Promise.resolve()
    const data = entries.map(e => JSON.stringify(e)).join('\n') + '\n'
    return this.queue.run(async () => {
      await mkdir(dirname(this.path), { recursive: true })
      await appendFile(this.path, data)
    })
  }

  /** Forgets the history by moving it aside (kotodama.reset); nothing is deleted. */
  reset(): Promise<string | undefined> {
    return this.queue.run(async () => {
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

  flushed(): Promise<void> {
    return this.queue.idle()
  }
}
