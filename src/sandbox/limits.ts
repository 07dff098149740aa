// The sandbox's limits: the fixed bounds of the design and the normalisation of a profile's
// codemode quotas (missing or invalid values fall back to the plugin's defaults, DEFAULT_CODEMODE).
import { DEFAULT_CODEMODE } from '../config/defaults'
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
/** a host error a program is told, at most (its message and cause) */
export const MAX_ERROR_CHARS = 16_384
/** QuickJS's own stack limit; the worker's V8 stack (WORKER_STACK_MB) must be well above it. */
export const QUICKJS_STACK_BYTES = 1 * MiB
export const WORKER_STACK_MB = 8
/** modules one program may import (SPEC §24), and the size of one */
export const MAX_MODULES = 32
export const MAX_MODULE_BYTES = 256 * KiB

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
  const d = DEFAULT_CODEMODE
  const memory = count(l.memoryLimitBytes, d.memoryLimitBytes, MIN_MEMORY_BYTES, MAX_MEMORY_BYTES)
  return {
    // setTimeout's ceiling is 2^31-1 ms
    timeoutMs: count(l.timeoutMs, d.timeoutMs, 1, 2 ** 31 - 1 - WATCHDOG_GRACE_MS),
    pages: Math.floor(memory / PAGE),
    maxToolCalls: count(l.maxToolCalls, d.maxToolCalls),
    maxToolInputBytes: count(l.maxToolInputBytes, d.maxToolInputBytes),
    maxToolOutputBytes: count(l.maxToolOutputBytes, d.maxToolOutputBytes),
    maxResultBytes: count(l.maxResultBytes, d.maxResultBytes),
    maxLogBytes: count(l.maxLogBytes, DEFAULT_LOG_BYTES),
  }
}
