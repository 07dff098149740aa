// One timer for the soonest of many due times (idle wakes, schedules: one per runtime, however many
// conversations wait). It is set again only when a sooner time comes; a time further than a day is
// reached in day-long hops (setTimeout's limit is 24.8 days), so `fire` may come early: the caller
// looks at what is due and sets it again.
import type { Clock, Timer } from './clock'

const LONGEST_TIMER = 86_400_000

export class SoonestTimer {
  private timer?: Timer
  private at = Infinity

  constructor(private clock: Clock, private fire: () => void) {}

  /** Sets it for `at` unless it is set for a time no later already (Infinity: nothing to set). */
  sooner(at: number): void {
    if (at === Infinity || (this.timer && this.at <= at)) return
    this.timer?.cancel()
    this.at = at
    const wait = Math.min(Math.max(0, at - this.clock.now()), LONGEST_TIMER)
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined
      this.at = Infinity
      this.fire()
    }, wait).unref()
  }

  /** Sets it for `at` whatever it was set for (Infinity: off). */
  reset(at: number): void {
    this.cancel()
    this.sooner(at)
  }

  cancel(): void {
    this.timer?.cancel()
    this.timer = undefined
    this.at = Infinity
  }
}
