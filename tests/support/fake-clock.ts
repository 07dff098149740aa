// A fake clock a test installs when it needs one (@sinonjs/fake-timers), uninstalled after each test
// by a hook `fakeClock()` registers: the spec keeps no clean-up of its own, and a failing test never
// leaves the next one on fake time.
import { install } from '@sinonjs/fake-timers'

export type InstalledClock = ReturnType<typeof install>
export type ClockOptions = Parameters<typeof install>[0]

/**
 * Call in a `describe`, before the hooks that stop the harness (mocha runs `afterEach` hooks in
 * order: the clock goes first, so stopping runs on real time). Returns `install`, whose clock is
 * uninstalled after each test.
 */
export function fakeClock(): (options?: ClockOptions) => InstalledClock {
  let clock: InstalledClock | undefined
  afterEach(() => {
    clock?.uninstall()
    clock = undefined
  })
  return options => (clock = install(options))
}
