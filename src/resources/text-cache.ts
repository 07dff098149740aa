/*
 * What file reads remember between pages, per instance (the runtime service owns one; tests and
 * benches make their own): a line index per file and the decoded text of small files, both LRUs
 * keyed by (path, size, mtimeMs), and a few scratch chunk buffers.
 *
 * Small files keep their decoded text: files up to `eager` (256 KiB) on first sight (they were
 * always read whole, to count them), files up to `onContinue` (1 MiB) from their first Continue
 * page on (paging through is likely then; a single first page stays a 90 KB read).
 */
import { LRUCache } from 'lru-cache'
import { FileIndex } from './line-index'
import type { WholeText } from './whole-text'

export interface TextLimits {
  /** a file up to this many bytes keeps its text on first sight */
  eager: number
  /** a file up to this many bytes keeps its text from its first Continue page on */
  onContinue: number
  /** bytes of kept text in all, the least recently read dropped first */
  maxTextBytes?: number
}

const DEFAULT_TEXT_LIMITS: Readonly<Required<TextLimits>> = { eager: 256 << 10, onContinue: 1 << 20, maxTextBytes: 32 << 20 }

/** Bytes of one chunked read, and of each scratch buffer. */
export const CHUNK = 1 << 20
const SPARE_BUFFERS = 4

export class TextCache {
  readonly limits: Readonly<Required<TextLimits>>
  private indexes = new LRUCache<string, FileIndex>({ max: 256, maxSize: 64 << 20, sizeCalculation: (entry) => entry.weight })
  private texts: LRUCache<string, WholeText>
  /** scratch only: their bytes are never read before being overwritten */
  private spare: Buffer[] = []

  /** Today's limits unless overridden; tests set eager/onContinue to 0 to stream small files. */
  constructor(limits: Partial<TextLimits> = {}) {
    this.limits = {
      eager: limits.eager ?? DEFAULT_TEXT_LIMITS.eager,
      onContinue: limits.onContinue ?? DEFAULT_TEXT_LIMITS.onContinue,
      maxTextBytes: limits.maxTextBytes ?? DEFAULT_TEXT_LIMITS.maxTextBytes,
    }
    // lru-cache takes no maxSize of 0; 1 keeps nothing, as 0 means
    this.texts = new LRUCache({ maxSize: Math.max(1, this.limits.maxTextBytes), sizeCalculation: (entry) => entry.weight })
  }

  /** Forgets every file index and kept text (after a bulk change of files, or for a cold read). */
  clear(): void {
    this.indexes.clear()
    this.texts.clear()
  }

  /**
   * Forgets what is kept of the file at `path` (after a write replaced it): keys hold size and
   * mtime, and two writes inside one tick of the file clock can leave both unchanged.
   */
  forget(path: string): void {
    const prefix = path + '\0'
    for (const lru of [this.indexes, this.texts] as LRUCache<string, unknown>[]) {
      for (const key of [...lru.keys()]) if (key.startsWith(prefix)) lru.delete(key)
    }
  }

  /** The line index of the file `key` names, made on first sight. */
  index(key: string, size: number): FileIndex {
    let index = this.indexes.get(key)
    if (!index) this.indexes.set(key, index = new FileIndex(key, size))
    return index
  }

  /** Refreshes the index's size in the LRU after a read added to it. */
  grown(index: FileIndex): void {
    this.indexes.set(index.key, index)
  }

  text(key: string): WholeText | undefined {
    return this.texts.get(key)
  }

  keep(key: string, text: WholeText): void {
    this.texts.set(key, text)
  }

  /** Lends a CHUNK-sized scratch buffer: a fresh one per read would fault its pages in again. */
  async withChunk<T>(use: (buffer: Buffer) => Promise<T>): Promise<T> {
    const buffer = this.spare.pop() ?? Buffer.allocUnsafe(CHUNK)
    try {
      return await use(buffer)
    } finally {
      if (this.spare.length < SPARE_BUFFERS) this.spare.push(buffer)
    }
  }
}
