// Entries appended to conversations, waiting to be indexed (recall.ts `add`). An append only queues
// them: turning them into documents, a log write, an index to open all happen in one batch per
// conversation, once appends stop for a moment (or after at most a few seconds of steady appends).
// A search, a reset, `idle` and `stop` take a conversation's batch first, so nothing is missed;
// a crash loses only what the history's tail gives back at the next catch-up.
import type { Entry } from '../history/entries'
import type { Clock, Timer } from '../util/clock'

/** quiet time after the last append before the batches go */
const QUIET_MS = 500
/** at most this long behind steady appends */
const MAX_MS = 3000

export class PendingAdds {
  private byKey = new Map<string, Entry[]>()
  private timer?: Timer
  private since = 0
  private flushing?: Promise<void>

  constructor(private clock: Clock, private take: (key: string, entries: Entry[]) => Promise<unknown> | void) {}

  /** Queues entries of `key`; returns how many entries the conversation has waiting. */
  push(key: string, entries: readonly Entry[]): number {
    let list = this.byKey.get(key)
    if (!list) this.byKey.set(key, list = [])
    list.push(...entries)
    const now = this.clock.monotonic()
    if (!this.timer) this.since = now
    this.timer?.cancel()
    const wait = Math.max(0, Math.min(QUIET_MS, this.since + MAX_MS - now))
    this.timer = this.clock.setTimeout(() => { this.timer = undefined; void this.flush() }, wait).unref()
    return list.length
  }

  /** Hands over one conversation's batch at once (before a search or a reset of it). */
  takeNow(key: string): Promise<unknown> | void {
    const list = this.byKey.get(key)
    if (!list) return
    this.byKey.delete(key)
    return this.take(key, list)
  }

  /** Hands over every batch, one conversation after the other (so a burst does not open many indexes at once). */
  flush(): Promise<void> {
    this.timer?.cancel()
    this.timer = undefined
    const run = async () => {
      await previous
      for (const key of [...this.byKey.keys()]) await this.takeNow(key)
    }
    const previous = this.flushing
    const done = this.flushing = run().finally(() => { if (this.flushing === done) this.flushing = undefined })
    return done
  }
}
