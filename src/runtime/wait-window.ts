// An armed wait declaration: a time window and a message window, the first satisfied fires once
// (SPEC §4.3). Stored in the history and the home's waits index (durable-waits.ts, SPEC §15); a
// restored one counts from its stored time and the facts already seen.
import type { WaitDeclaration } from '../contract/tool'

/** `lateMs`: the time window ended while kotodama was not running, this long ago */
export type WaitFired = { window: 'time'; seconds: number; lateMs?: number } | { window: 'messages'; messages: number }

/** A wait restored after a restart: the time now and the facts that came after it was armed. */
export interface RestoredWait {
  now: number
  seen: number
}

/** Overdue by less than this at a restore is on time, not late. */
const LATE_AFTER_MS = 1000

export class WaitWindow {
  private seen = 0
  private cancelTimer?: () => void
  private done = false

  constructor(readonly declaration: WaitDeclaration, readonly armedAt: number,
    private fire: (why: WaitFired) => void, setTimer: (fn: () => void, ms: number) => () => void, restored?: RestoredWait) {
    const { seconds, messages } = declaration
    this.seen = restored?.seen ?? 0
    if (seconds !== undefined) {
      const left = restored ? armedAt + seconds * 1000 - restored.now : seconds * 1000
      const late = -left >= LATE_AFTER_MS ? { lateMs: -left } : {}
      this.cancelTimer = setTimer(() => this.trigger({ window: 'time', seconds, ...late }), Math.max(0, left))
    }
    // facts that filled the window before a restart: it fires at once, on a timer so never inside
    // the caller's own assignment (an overdue time window, armed first, goes first)
    if (messages !== undefined && this.seen >= messages) {
      const cancelTime = this.cancelTimer
      const cancelNow = setTimer(() => this.trigger({ window: 'messages', messages: this.seen }), 0)
      this.cancelTimer = () => { cancelTime?.(); cancelNow() }
    }
  }

  /** Counts one new fact of the conversation. */
  countFact(): void {
    if (this.done || this.declaration.messages === undefined) return
    if (++this.seen >= this.declaration.messages) this.trigger({ window: 'messages', messages: this.seen })
  }

  get factsSeen(): number {
    return this.seen
  }

  cancel(): void {
    this.done = true
    this.cancelTimer?.()
  }

  private trigger(why: WaitFired): void {
    if (this.done) return
    this.cancel()
    this.fire(why)
  }
}

/** The note the mind reads when its wait fires (model-facing: the one place for these). */
export function wakeNote(why: WaitFired): string {
  if (why.window === 'messages') return `[wake: ${why.messages} new message${why.messages === 1 ? '' : 's'} arrived since you chose to wait]`
  if (why.lateMs === undefined) return `[wake: the ${why.seconds} s you chose to wait have passed]`
  const late = `kotodama was not running when they ended, so this wake-up comes ${duration(why.lateMs)} late`
  return `[wake: the ${why.seconds} s you chose to wait have passed; ${late}]`
}

/** A lateness as people say it: 40 s, 12 min, 3 h 5 min, 2 days 4 h. */
function duration(ms: number): string {
  const s = Math.round(ms / 1000)
  if (s < 60) return `${s} s`
  const min = Math.round(s / 60)
  if (min < 60) return `${min} min`
  const h = Math.floor(min / 60)
  if (h < 48) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`
  const d = Math.floor(h / 24)
  return h % 24 ? `${d} days ${h % 24} h` : `${d} days`
}
