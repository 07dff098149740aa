// The background queue that fetches inbound media when they arrive (SPEC §19: QQ's links expire
// within hours): a few fetches at once, a bounded wait list, aborted as a whole on stop.

/** At most this many arrival fetches run at once per runtime. */
export const PREFETCH_CONCURRENCY = 4
/** Past this many waiting, the oldest are left for their first read. */
export const PREFETCH_MAX_WAITING = 500

interface Waiter {
  promise: Promise<void>
  resolve: () => void
}

function waiter(): Waiter {
  let resolve!: () => void
  const promise = new Promise<void>(r => { resolve = r })
  return { promise, resolve }
}

export class FetchQueue {
  /** fields so tests and the bench can change them */
  limit = PREFETCH_CONCURRENCY
  maxWaiting = PREFETCH_MAX_WAITING
  /** how many ids were left for first read because the wait list was full */
  left = 0
  /** the most fetches that ran at once */
  peak = 0
  /** in arrival order: the first entry is the oldest */
  private waiting = new Map<string, Waiter>()
  private running = new Map<string, Promise<void>>()
  private idlers: (() => void)[] = []
  /**
   * One controller per fetch, not one signal shared by all: Koishi's HTTP client adds an abort
   * listener to the signal it is given and never removes it.
   */
  private controllers = new Set<AbortController>()
  private stopped = false
  private told = false

  constructor(private work: (id: string, signal: AbortSignal) => Promise<void>, private warn: (text: string) => void) {}

  get size(): { waiting: number; running: number } {
    return { waiting: this.waiting.size, running: this.running.size }
  }

  add(id: string): void {
    if (this.stopped || this.waiting.has(id) || this.running.has(id)) return
    this.waiting.set(id, waiter())
    if (this.waiting.size > this.maxWaiting) {
      const [oldest, w] = this.waiting.entries().next().value!
      this.waiting.delete(oldest)
      w.resolve()
      this.left++
      if (!this.told) {
        this.told = true
        this.warn(`more than ${this.maxWaiting} inbound media wait to be fetched; the oldest are fetched on first read instead (their links may expire first)`)
      }
    }
    this.pump()
  }

  /** Resolves when `id` is neither waiting nor being fetched. */
  settled(id: string): Promise<void> {
    return this.waiting.get(id)?.promise ?? this.running.get(id) ?? Promise.resolve()
  }

  /** Resolves when nothing waits and nothing runs. */
  idle(): Promise<void> {
    if (!this.waiting.size && !this.running.size) return Promise.resolve()
    return new Promise(r => this.idlers.push(r))
  }

  /** Drops the wait list and aborts the fetches under way; their promises settle soon after. */
  stop(): void {
    this.stopped = true
    for (const w of this.waiting.values()) w.resolve()
    this.waiting.clear()
    for (const c of this.controllers) c.abort(new Error('the runtime stopped'))
    this.checkIdle()
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.limit && this.waiting.size) {
      const [id, w] = this.waiting.entries().next().value!
      this.waiting.delete(id)
      const controller = new AbortController()
      this.controllers.add(controller)
      const p = Promise.resolve()
        .then(() => this.work(id, controller.signal))
        .catch(() => {})
        .finally(() => {
          this.controllers.delete(controller)
          this.running.delete(id)
          w.resolve()
          this.pump()
          this.checkIdle()
        })
      this.running.set(id, p)
      this.peak = Math.max(this.peak, this.running.size)
    }
  }

  private checkIdle(): void {
    if (this.waiting.size || this.running.size) return
    const idlers = this.idlers
    this.idlers = []
    for (const r of idlers) r()
  }
}
