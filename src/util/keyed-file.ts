// A small map kept in memory and written whole to one JSON file of the runtime home, atomically
// and one write at a time (a write queued before it took its snapshot carries later changes too).
// The waits index and the mute book are such files.
import { readFile } from 'node:fs/promises'
import { atomicWrite } from './atomic-write'
import type { Logger } from './logger'

export interface KeyedFileOptions<T> {
  path: string
  /** the top-level field that holds the map: `{ "<field>": { key: value } }` */
  field: string
  /** what the file holds, for the log ("waits index", "mute book") */
  what: string
  /** a stored value, checked and normalized; undefined drops it */
  value(v: unknown): T | undefined
  logger: Logger
}

export class KeyedFile<T> {
  readonly map = new Map<string, T>()
  private writing: Promise<void> = Promise.resolve()
  private queued = false
  private failing = false
  private closed = false

  constructor(private o: KeyedFileOptions<T>) {}

  get path(): string {
    return this.o.path
  }

  /**
   * Reads the file; a missing one is empty. Returns why it could not be used (unreadable, or not
   * such a file: then it is treated as empty and rewritten), or undefined.
   */
  async load(): Promise<string | undefined> {
    let text: string
    try {
      text = await readFile(this.o.path, 'utf8')
    } catch (e: any) {
      return e?.code === 'ENOENT' ? undefined : `could not be read (${e?.message ?? e})`
    }
    try {
      const read = parseKeyed(text, this.o.field, this.o.value)
      this.map.clear()
      for (const [k, v] of read) this.map.set(k, v)
      return undefined
    } catch (e: any) {
      this.map.clear()
      this.changed()
      return `is not valid (${e?.message ?? e})`
    }
  }

  /** Queues a write of the whole map. */
  changed(): void {
    if (this.closed || this.queued) return
    this.queued = true
    this.writing = this.writing.then(() => this.write())
  }

  /** Writes every change so far; whether that write (or a later one carrying it) reached the disk. */
  async saved(): Promise<boolean> {
    if (this.closed) return false
    this.changed()
    await this.writing
    return !this.failing
  }

  /** Resolves when every change so far is written (or could not be). */
  idle(): Promise<void> {
    return this.writing
  }

  /** Writes what is pending; later changes stay in memory. */
  async stop(): Promise<void> {
    this.closed = true
    await this.writing
  }

  private async write(): Promise<void> {
    this.queued = false
    const data = JSON.stringify({ [this.o.field]: Object.fromEntries(this.map) }, null, 1)
    try {
      await atomicWrite(this.o.path, data)
      if (this.failing) this.o.logger.info('%s %s is written again', this.o.what, this.o.path)
      this.failing = false
    } catch (e: any) {
      if (!this.failing) this.o.logger.warn('%s %s could not be written: %s', this.o.what, this.o.path, e?.message ?? e)
      this.failing = true
    }
  }
}

/** The file's map; throws when the text is not such a file. Values that fail `value` are left out. */
export function parseKeyed<T>(text: string, field: string, value: (v: unknown) => T | undefined): Map<string, T> {
  const data = JSON.parse(text)
  const map = data?.[field]
  if (!data || typeof data !== 'object' || !map || typeof map !== 'object' || Array.isArray(map)) throw new Error(`no "${field}" map`)
  const out = new Map<string, T>()
  for (const [key, raw] of Object.entries<unknown>(map)) {
    const v = value(raw)
    if (v !== undefined) out.set(key, v)
  }
  return out
}
