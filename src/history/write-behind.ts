// What both history stores do with appends (SPEC §10): appends that queue up while a write is in
// flight go out together in the next one; a failed write keeps its items in memory, in order, and
// is tried again after 1 s, doubling up to 60 s; one error is logged per outage and one line when
// the storage takes writes again. How a write reaches the storage is the store's own.
import type { Logger } from '../util/logger'
import { SerialQueue } from '../util/serial-queue'
import type { Clock, Timer } from '../util/clock'

const RETRY_MS = 1000
const RETRY_MAX_MS = 60_000

export interface WriteBehindOptions<T> {
  /** the store's own order of work: writes, repairs, resets and closing share it */
  queue: SerialQueue
  clock: Clock
  logger: Logger
  /** names the history in log lines */
  where: () => string
  /** what refused the write, for the log: 'disk', 'database' */
  medium: string
  /**
   * Writes the first `count` items of `pending` and removes from it what was written (all of it,
   * or what a partial write took); throws when the storage refused.
   */
  write(pending: T[], count: number): Promise<void>
}

export class WriteBehind<T> {
  /** items not yet written, oldest first */
  pending: T[] = []
  /** the last write failed: items wait in memory */
  failing = false
  private waiting?: Promise<void>
  private retryTimer?: Timer
  private retryMs = RETRY_MS
  /** after `flushed`: no more retries (a later store of the same history owns it) */
  private stopped = false

  constructor(private o: WriteBehindOptions<T>) {}

  push(items: T[]): Promise<void> {
    this.pending.push(...items)
    return this.schedule()
  }

  /** Everything queued before the write starts goes out with it. */
  private schedule(): Promise<void> {
    this.waiting ??= this.o.queue.run(async () => {
      // the appends of this moment (a turn's fact, its opening and its step) go out in one write
      await new Promise(resolve => setImmediate(resolve))
      this.waiting = undefined
      await this.writePending()
    })
    return this.waiting
  }

  private async writePending(): Promise<void> {
    const count = this.pending.length
    if (!count) return
    try {
      await this.o.write(this.pending, count)
      if (this.failing) this.o.logger.info('%s: the history is written again (%d entries that had waited)', this.o.where(), count)
      this.failing = false
      this.retryMs = RETRY_MS
      this.retryTimer?.cancel()
      this.retryTimer = undefined
    } catch (e: any) {
      if (!this.failing) {
        this.o.logger.error(
          '%s: could not write the history (%s); %d entries are kept in memory and written when the %s allows',
          this.o.where(), e?.code ?? e?.message ?? e, this.pending.length, this.o.medium)
      }
      this.failing = true
      this.retryLater()
      throw e
    }
  }

  private retryLater(): void {
    if (this.retryTimer || this.stopped) return
    this.retryTimer = this.o.clock.setTimeout(() => {
      this.retryTimer = undefined
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS)
      this.schedule().catch(() => {})
    }, this.retryMs).unref()
  }

  /** Stops retrying and makes one last write of what is left. */
  async flushed(): Promise<void> {
    this.stopped = true
    this.retryTimer?.cancel()
    this.retryTimer = undefined
    await this.o.queue.idle()
    if (this.pending.length) await this.o.queue.run(() => this.writePending()).catch(() => {
      this.o.logger.error('%s: %d history entries could not be written before stopping', this.o.where(), this.pending.length)
    })
  }
}
