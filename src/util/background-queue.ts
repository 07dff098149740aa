// The one background queue (arrival fetches, sticker sightings, hearing, history pulls): a few tasks
// at once, a bounded wait list, and a stop that drops what waits and aborts what runs.
//
// Past `maxWaiting`, one task is dropped: the oldest waiting (`drop: 'oldest'`, the default) or the
// one being added (`drop: 'newest'`). A dropped task never runs and its promise rejects with
// `Dropped`; `onFull` is told once, at the first drop, so the owner can log it. A task that throws
// rejects its own promise only: the queue goes on with the next.

/** Why a task never ran: the wait list was full, or the queue stopped. */
export class Dropped extends Error {
  constructor(readonly why: 'full' | 'stopped') {
    super(why === 'full' ? 'the background queue is full' : 'the background queue stopped')
  }
}

export interface BackgroundQueueOptions {
  /** tasks running at once */
  concurrency: number
  /** tasks waiting at most (Infinity: never dropped) */
  maxWaiting: number
  /** which task goes past `maxWaiting`: the oldest waiting (default) or the one being added */
  drop?: 'oldest' | 'newest'
  /** told at the first drop of the queue's life (a log line, once), with the cap then */
  onFull?(maxWaiting: number): void
}

export type BackgroundTask<T> = (signal: AbortSignal) => Promise<T>

interface Item {
  task: BackgroundTask<unknown>
  key?: string
  promise: Promise<unknown>
  resolve(v: unknown): void
  reject(e: unknown): void
}

export class BackgroundQueue {
  /** fields, so tests and the bench can change them */
  concurrency: number
  maxWaiting: number
  /** tasks dropped so far (the wait list was full) */
  dropped = 0
  /** the most tasks that ran at once */
  peak = 0
  /** in arrival order: the first is the oldest */
  private waiting: Item[] = []
  private running = new Set<Item>()
  /** the waiting and running tasks that have a key */
  private keyed = new Map<string, Item>()
  private idlers: (() => void)[] = []
  /**
   * One controller per task, not one signal shared by all: Koishi's HTTP client adds an abort
   * listener to the signal it is given and never removes it.
   */
  private controllers = new Set<AbortController>()
  private stopping = false

  constructor(private o: BackgroundQueueOptions) {
    this.concurrency = o.concurrency
    this.maxWaiting = o.maxWaiting
  }

  get stopped(): boolean {
    return this.stopping
  }

  get size(): { waiting: number; running: number } {
    return { waiting: this.waiting.length, running: this.running.size }
  }

  /**
   * Queues `task`; its promise settles with the task's. With a `key` already waiting or running,
   * nothing is added and that task's promise is returned.
   */
  run<T>(task: BackgroundTask<T>, key?: string): Promise<T> {
    if (this.stopping) return Promise.reject(new Dropped('stopped'))
    const same = key === undefined ? undefined : this.keyed.get(key)
    if (same) return same.promise as Promise<T>
    const item = pending(task, key)
    // a caller that drops its promise must not see an unhandled rejection
    item.promise.catch(() => {})
    if (this.o.drop === 'newest' && this.waiting.length >= this.maxWaiting && this.running.size >= this.concurrency) {
      this.dropItem(item)
      return item.promise as Promise<T>
    }
    if (key !== undefined) this.keyed.set(key, item)
    this.waiting.push(item)
    this.pump()
    if (this.waiting.length > this.maxWaiting) this.dropItem(this.waiting.shift()!)
    return item.promise as Promise<T>
  }

  /** Resolves when the task of `key` is neither waiting nor running (whether it ran or not). */
  settled(key: string): Promise<void> {
    return this.keyed.get(key)?.promise.then(() => {}, () => {}) ?? Promise.resolve()
  }

  /** Resolves when nothing waits and nothing runs. */
  idle(): Promise<void> {
    if (!this.waiting.length && !this.running.size) return Promise.resolve()
    return new Promise(r => this.idlers.push(r))
  }

  /** Drops the wait list and aborts the tasks under way, without waiting for them; later tasks are dropped at once. */
  stop(): void {
    this.stopping = true
    const waiting = this.waiting
    this.waiting = []
    for (const item of waiting) {
      this.forget(item)
      item.reject(new Dropped('stopped'))
    }
    for (const c of this.controllers) c.abort(new Error('the background queue stopped'))
    this.checkIdle()
  }

  private dropItem(item: Item): void {
    this.forget(item)
    if (!this.dropped++) this.o.onFull?.(this.maxWaiting)
    item.reject(new Dropped('full'))
  }

  private forget(item: Item): void {
    if (item.key !== undefined && this.keyed.get(item.key) === item) this.keyed.delete(item.key)
  }

  private pump(): void {
    while (!this.stopping && this.running.size < this.concurrency && this.waiting.length) {
      const item = this.waiting.shift()!
      const controller = new AbortController()
      this.controllers.add(controller)
      this.running.add(item)
      this.peak = Math.max(this.peak, this.running.size)
      Promise.resolve()
        .then(() => item.task(controller.signal))
        .then(item.resolve, item.reject)
        .finally(() => {
          this.controllers.delete(controller)
          this.running.delete(item)
          this.forget(item)
          this.pump()
          this.checkIdle()
        })
    }
  }

  private checkIdle(): void {
    if (this.waiting.length || this.running.size) return
    const idlers = this.idlers
    this.idlers = []
    for (const r of idlers) r()
  }
}

function pending(task: BackgroundTask<unknown>, key?: string): Item {
  let resolve!: (v: unknown) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<unknown>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { task, key, promise, resolve, reject }
}
