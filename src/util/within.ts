// Waiting for a promise at most `ms`: its value, or `TIMED_OUT`. The timer is cleared when the promise
// settles first and never holds the process open; a rejection passes through.

export const TIMED_OUT: unique symbol = Symbol('timed out')

export function within<T>(p: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<typeof TIMED_OUT>(resolve => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms)
    timer.unref?.()
  })
  return Promise.race([p, late]).finally(() => clearTimeout(timer))
}
