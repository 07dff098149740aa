// The messages recalled in a runtime's channels, kept in its home's `recalled.json` (SPEC §19), for
// what reads the history without its `recalled` entries: recall's index (search, history://).
// Bounded: the newest RECALLED_MAX recalls are kept.
import { join } from 'node:path'
import { KeyedFile } from '../util/keyed-file'
import type { Logger } from '../util/logger'

export const RECALLED_FILE = 'recalled.json'
export const RECALLED_MAX = 10_000

const key = (channel: string, id: string) => `${channel}\u0000${id}`
const atValue = (v: unknown) => typeof v === 'number' && Number.isFinite(v) ? v : undefined

export class RecalledBook {
  private file: KeyedFile<number>

  constructor(home: string, logger: Logger) {
    this.file = new KeyedFile({ path: join(home, RECALLED_FILE), field: 'recalled', what: 'recalled messages', value: atValue, logger })
  }

  async load(logger: Logger): Promise<void> {
    const problem = await this.file.load()
    if (problem) logger.warn('recalled messages %s %s; search may show messages recalled before', this.file.path, problem)
  }

  add(channel: string, id: string, at: number): void {
    this.file.map.set(key(channel, id), at)
    // a Map keeps insertion order: the oldest go first
    for (const k of this.file.map.keys()) {
      if (this.file.map.size <= RECALLED_MAX) break
      this.file.map.delete(k)
    }
    this.file.changed()
  }

  has(channel: string, id: string): boolean {
    return this.file.map.has(key(channel, id))
  }

  stop(): Promise<void> {
    return this.file.stop()
  }
}
