// Captured at module load: tests install @sinonjs/fake-timers in other suites, and the
// deadline and watchdog must keep running on real time.
const perf = globalThis.performance
const perfNow = perf.now.bind(perf)

export const now: () => number = perfNow
export const setRealTimeout = globalThis.setTimeout
export const clearRealTimeout = globalThis.clearTimeout
export const queueRealMicrotask = globalThis.queueMicrotask
