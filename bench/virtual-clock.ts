// Simulated time for benchmarks of timing policies (bursts, cooldowns): timers fire when the
// bench advances the clock, so a hundred bursts with second-long pauses run in a moment, and
// everything else (files, the model, the sandbox) runs for real between the ticks. Timers run on
// the monotonic time; `shiftWall` moves only the wall clock, as NTP or a resumed VM does.
import type { Clock, Timer } from '../src/util/clock'

interface Pending { at: number; seq: number; fn: () => void; cancelled: boolean }

const turnOfTheLoop = () => new Promise(resolve => setImmediate(resolve))

export class VirtualClock implements Clock {
  private timers: Pending[] = []
  private seq = 0
  /** ms the wall clock is off the monotonic one */
  private wall = 0

  constructor(private t: number) {}

  now(): number { return this.t + this.wall }
  monotonic(): number { return this.t }
  queueMicrotask(fn: () => void): void { queueMicrotask(fn) }

  setTimeout(fn: () => void, ms: number): Timer {
    const p: Pending = { at: this.t + Math.max(0, ms), seq: ++this.seq, fn, cancelled: false }
    this.timers.push(p)
    const timer: Timer = { cancel: () => { p.cancelled = true }, unref: () => timer }
    return timer
  }

  /** timers set and neither fired nor cancelled */
  get live(): number {
    return this.timers.filter(p => !p.cancelled).length
  }

  /** ms until the soonest live timer is due (undefined: none) */
  get untilNext(): number | undefined {
    const live = this.timers.filter(p => !p.cancelled)
    return live.length ? Math.max(0, Math.min(...live.map(p => p.at)) - this.t) : undefined
  }

  /** The wall clock jumps by `ms` (negative: back); timers keep their monotonic deadlines. */
  shiftWall(ms: number): void {
    this.wall += ms
  }

  /** A pause of `ms` in simulated time (the bench's model latency). */
  sleep(ms: number): Promise<void> {
    return new Promise(resolve => this.setTimeout(resolve, ms))
  }

  /** Moves time forward by `ms`, firing due timers in order and letting real work settle after each. */
  async advance(ms: number, step = 10): Promise<void> {
    const end = this.t + ms
    while (this.t < end) {
      this.t = Math.min(end, this.t + step)
      for (;;) {
        this.timers = this.timers.filter(p => !p.cancelled)
        const due = this.timers.filter(p => p.at <= this.t).sort((a, b) => a.at - b.at || a.seq - b.seq)[0]
        if (!due) break
        this.timers.splice(this.timers.indexOf(due), 1)
        due.fn()
        for (let i = 0; i < 5; i++) await turnOfTheLoop()
      }
      for (let i = 0; i < 3; i++) await turnOfTheLoop()
    }
  }
}
