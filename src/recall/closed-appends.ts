// Messages appended to the logs of indexes that are not open (docs/recall.md "Updated as
// messages are stored"): one append after the other per conversation, each after the index
// closed, counted until the index opens and reads them. A log whose folder is gone is not
// written; the conversation is then caught up from its history when its index next opens.
import { ConvIndex } from './conv-index'
import type { RecallDoc } from './docs'

export class ClosedAppends {
  private counts = new Map<string, number>()
  private chains = new Map<string, Promise<unknown>>()

  /**
   * Appends `docs` to the log in `dir` once `closing` (the index's close, if any) is done; returns
   * how many messages wait in that log and the write. `gone` is told when the folder is missing.
   */
  append(key: string, dir: string, docs: RecallDoc[], closing: Promise<void> | undefined, gone: () => void) {
    const waiting = (this.counts.get(key) ?? 0) + docs.length
    this.counts.set(key, waiting)
    const done = Promise.all([closing, this.chains.get(key)])
      .then(() => ConvIndex.appendClosed(dir, docs))
      .then(written => { if (!written) gone() })
    const settled = done.catch(() => {})
    this.chains.set(key, settled)
    settled.finally(() => { if (this.chains.get(key) === settled) this.chains.delete(key) })
    return { waiting, done }
  }

  /** The index of `key` opens: waits for its appends, then forgets their count. */
  async opening(key: string): Promise<void> {
    await this.chains.get(key)
    this.counts.delete(key)
  }

  /** Resolves when every append so far is written (or failed). */
  async idle(): Promise<void> {
    await Promise.all(this.chains.values())
  }
}
