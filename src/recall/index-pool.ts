// The open indexes of a runtime's recall (docs/recall.md): at most MAX_OPEN at once, the least
// recently used closing when another opens, so memory does not grow with the number of
// conversations. A conversation's index opens only after its previous one has closed; once the
// pool closes, nothing opens again.
import type { ConvIndex } from './conv-index'

/** indexes open at once per runtime */
const MAX_OPEN = 16

export class IndexPool {
  private open = new Map<string, Promise<ConvIndex>>()
  private closing = new Map<string, Promise<void>>()
  private shut = false

  /** `load` opens a conversation's index (after its previous one closed). */
  constructor(private load: (key: string) => Promise<ConvIndex>) {}

  has(key: string): boolean {
    return this.open.has(key)
  }

  /** The open index of `key`, opened when it is not; refused once the pool closed. */
  get(key: string): Promise<ConvIndex> {
    let p = this.open.get(key)
    if (p) {
      this.open.delete(key)
      this.open.set(key, p)
      return p
    }
    if (this.shut) return Promise.reject(new Error('recall has stopped'))
    const loading = (async () => {
      await this.closing.get(key)
      return this.load(key)
    })()
    p = loading
    loading.catch(() => { if (this.open.get(key) === loading) this.open.delete(key) })
    this.open.set(key, loading)
    while (this.open.size > MAX_OPEN) {
      const [oldest, q] = this.open.entries().next().value!
      this.open.delete(oldest)
      this.closeLater(oldest, q)
    }
    return p
  }

  /** The index of `key` closes, then `after` runs (an unreadable index's folder goes); it opens again on next use. */
  drop(key: string, after: () => Promise<void>): boolean {
    const p = this.open.get(key)
    if (!p) return false
    this.open.delete(key)
    const done = this.closeLater(key, p).then(after).catch(() => {})
    this.closing.set(key, done)
    done.finally(() => { if (this.closing.get(key) === done) this.closing.delete(key) })
    return true
  }

  /** Resolves when the index of `key` is no longer closing. */
  closed(key: string): Promise<void> | undefined {
    return this.closing.get(key)
  }

  private closeLater(key: string, p: Promise<ConvIndex>): Promise<void> {
    const done = p.then(idx => idx.close(), (): void => {})
    this.closing.set(key, done)
    done.finally(() => { if (this.closing.get(key) === done) this.closing.delete(key) })
    return done
  }

  /** Every open index, as far as it opens. */
  async each(fn: (idx: ConvIndex) => Promise<void>): Promise<void> {
    for (const p of [...this.open.values()]) {
      const idx = await p.catch((): undefined => undefined)
      if (idx) await fn(idx)
    }
  }

  /** Closes every index and waits for those closing; nothing opens after. */
  async close(): Promise<void> {
    this.shut = true
    const open = [...this.open]
    this.open.clear()
    await Promise.all([...open.map(([key, p]) => this.closeLater(key, p)), ...this.closing.values()])
  }
}
