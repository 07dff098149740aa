// How many conversations keep their history tail in memory, across the plugin's runtimes
// (issue 15). A bot in thousands of groups would otherwise hold every tail it ever loaded. The
// least recently used idle conversation is unloaded first; its next message loads it again from
// the tail of its history, as after a restart. Busy ones (a turn, a pending wait, unwritten
// entries, a message on its way in) are skipped, so the count may exceed the budget for a while.

export interface Resident {
  /** nothing in flight: unloading now loses nothing */
  idle(): boolean
  unload(): void
}

export class LoadedConversations {
  /** oldest use first (Map keeps insertion order) */
  private order = new Map<Resident, true>()

  constructor(readonly max = 1000) {
    if (!(max >= 1)) throw new RangeError('at least one conversation must stay loaded')
  }

  get size(): number {
    return this.order.size
  }

  /** `r` was just used; unloads idle ones over the budget. */
  touch(r: Resident): void {
    this.order.delete(r)
    this.order.set(r, true)
    if (this.order.size > this.max) this.shrink(r)
  }

  /** Something became idle: unloads what is over the budget. */
  recheck(): void {
    if (this.order.size > this.max) this.shrink()
  }

  forget(r: Resident): void {
    this.order.delete(r)
  }

  private shrink(keep?: Resident): void {
    for (const r of this.order.keys()) {
      if (this.order.size <= this.max) return
      if (r === keep || !r.idle()) continue
      this.order.delete(r)
      r.unload()
    }
  }
}
