// A process-wide cap on the file descriptors that histories hold (issue 15). Thousands of
// conversations each keeping their file open exhaust `ulimit -n` (EMFILE breaks every file
// operation, sockets included). A store takes a slot before opening its file and gives it back
// when it closes; while its file is open but idle it is "parked", and a store that needs a slot
// when none is free closes the least recently parked one first.
import { readFileSync } from 'node:fs'

export interface Parkable {
  /** Closes the idle handle (in the holder's own order of work); gives its slot back when done. */
  evict(): void
}

export class DescriptorBudget {
  private used = 0
  private highest = 0
  /** holders with an open, idle handle; oldest first (Map keeps insertion order) */
  private parked = new Map<Parkable, true>()
  private waiters: (() => void)[] = []

  constructor(readonly max = 64) {
    if (!(max >= 1)) throw new RangeError('a descriptor budget needs at least one slot')
  }

  get inUse(): number {
    return this.used
  }

  /** the most slots ever in use at once */
  get peak(): number {
    return this.highest
  }

  /** Resolves when a slot is free; asks idle holders to close while none is. */
  async take(): Promise<void> {
    while (this.used >= this.max) {
      const oldest = this.parked.keys().next()
      if (!oldest.done) {
        this.parked.delete(oldest.value)
        oldest.value.evict()
      }
      await new Promise<void>(resolve => this.waiters.push(resolve))
    }
    this.used++
    this.highest = Math.max(this.highest, this.used)
  }

  give(): void {
    this.used--
    this.waiters.shift()?.()
  }

  /** The holder's handle is open and idle: it may be closed for someone else. */
  park(holder: Parkable): void {
    this.parked.delete(holder)
    this.parked.set(holder, true)
    // someone may be waiting for exactly this
    if (this.waiters.length && this.used >= this.max) {
      this.parked.delete(holder)
      holder.evict()
    }
  }

  /** The holder uses its handle (or closed it): not evictable now. */
  unpark(holder: Parkable): void {
    this.parked.delete(holder)
  }
}

/**
 * Slots for a process whose soft limit of open files is `soft`: a quarter of it (sockets, assets,
 * the sandbox and Koishi need the rest), at least 16 and at most 512. Linux tells the limit in
 * /proc/self/limits; elsewhere 64.
 */
export function descriptorSlots(limits?: string): number {
  let text = limits
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8')
    } catch {
      return 64
    }
  }
  const soft = /^Max open files\s+(\d+|unlimited)/m.exec(text)?.[1]
  if (!soft) return 64
  if (soft === 'unlimited') return 512
  return Math.min(512, Math.max(16, Math.floor(Number(soft) / 4)))
}
