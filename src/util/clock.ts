// Time as the runtime, the history store and the sandbox see it, injected rather than taken from
// globals at module load: tests fake the clock of the part they test and keep the others real.

export interface Timer {
  cancel(): void
  /** Does not keep the process alive. */
  unref(): Timer
}

export interface Clock {
  /** Wall time, ms since the epoch. */
  now(): number
  /** Monotonic ms, for durations. */
  monotonic(): number
  setTimeout(fn: () => void, ms: number): Timer
  queueMicrotask(fn: () => void): void
}

/** The globals a clock reads its time and timers from. */
interface TimeGlobals {
  setTimeout: typeof setTimeout
  clearTimeout: typeof clearTimeout
  queueMicrotask: typeof queueMicrotask
  Date: DateConstructor
  performance: { now(): number }
}

function clockOf(g: TimeGlobals): Clock {
  return {
    now: () => g.Date.now(),
    monotonic: () => g.performance.now(),
    setTimeout(fn, ms) {
      const t = g.setTimeout(fn, ms)
      const timer: Timer = { cancel: () => g.clearTimeout(t), unref: () => { (t as any)?.unref?.(); return timer } }
      return timer
    },
    queueMicrotask: fn => g.queueMicrotask(fn),
  }
}

/** The process's timers, looked up at each call (so globally installed fakes apply). */
export const systemClock: Clock = clockOf(globalThis as any)

/** The timers installed right now, kept even if fakes are installed later. */
export function captureClock(): Clock {
  const g = globalThis as any
  const perf = g.performance
  return clockOf({
    setTimeout: g.setTimeout, clearTimeout: g.clearTimeout, queueMicrotask: g.queueMicrotask,
    Date: g.Date, performance: { now: perf.now.bind(perf) },
  })
}

/** A clock that asks `current()` at each use: tests may replace a service's clock after it was made. */
export function lateClock(current: () => Clock): Clock {
  return {
    now: () => current().now(),
    monotonic: () => current().monotonic(),
    setTimeout: (fn, ms) => current().setTimeout(fn, ms),
    queueMicrotask: fn => current().queueMicrotask(fn),
  }
}
