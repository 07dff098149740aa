import type { SandboxLimits } from './types'

const KiB = 1024
const MiB = 1024 * KiB
const PAGE = 64 * KiB

/** QuickJS's wasm build starts at 16 MiB (5 MiB of it C stack); below ~20 MiB a program can barely run. */
export const MIN_MEMORY_BYTES = 20 * MiB
/** wasm32 addresses at most 4 GiB. */
export const MAX_MEMORY_BYTES = 4096 * MiB - PAGE
export const DEFAULT_LOG_BYTES = 64 * KiB
/** The watchdog kills the worker this long after the deadline if the program is still running. */
export const WATCHDOG_GRACE_MS = 500
/** QuickJS's own stack limit; the worker's V8 stack (WORKER_STACK_MB) must be well above it. */
export const QUICKJS_STACK_BYTES = 1 * MiB
export const WORKER_STACK_MB = 8

/** What the worker needs to enforce. */
export interface WorkerLimits {
  timeoutMs: number
  pages: number
  maxToolCalls: number
  maxToolInputBytes: number
  maxResultBytes: number
  maxLogBytes: number
}

export interface Limits extends WorkerLimits {
  maxToolOutputBytes: number
}

const count = (v: unknown, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  typeof v === 'number' && !Number.isNaN(v) ? Math.min(max, Math.max(min, Math.floor(v))) : fallback

export function normalizeLimits(l: SandboxLimits): Limits {
  const memory = count(l.memoryLimitBytes, 64 * MiB, MIN_MEMORY_BYTES, MAX_MEMORY_BYTES)
  return {
    // setTimeout's ceiling is 2^31-1 ms
    timeoutMs: count(l.timeoutMs, 30_000, 1, 2 ** 31 - 1 - WATCHDOG_GRACE_MS),
    pages: Math.floor(memory / PAGE),
    maxToolCalls: count(l.maxToolCalls, 1000),
    maxToolInputBytes: count(l.maxToolInputBytes, 256 * KiB),
    maxToolOutputBytes: count(l.maxToolOutputBytes, MiB),
    maxResultBytes: count(l.maxResultBytes, MiB),
    maxLogBytes: count(l.maxLogBytes, DEFAULT_LOG_BYTES),
  }
}
