import type { CodemodeLimits } from '../config/types'

/** The plugin's codemode quotas (SPEC §1, §8), plus the console capture bound. */
export interface SandboxLimits extends CodemodeLimits {
  /** Bytes of captured console output; default 64 KiB. A truncation marker line is added past it. */
  maxLogBytes?: number
}

export type HostTool = (input: unknown, opts: { signal: AbortSignal }) => Promise<unknown>

export interface RunOptions {
  tools: Record<string, HostTool>
  limits: SandboxLimits
  signal?: AbortSignal
  /** the text of a module a program imports (SPEC §24); absent: imports fail with ModuleNotFound */
  modules?: ModuleSource
}

/** Reads a module's text on the host; an error's name (ModuleNotFound, ...) reaches the program. */
export type ModuleSource = (url: string, signal: AbortSignal) => Promise<string>

export interface RunStats {
  wallMs: number
  toolCalls: number
  /** Final size of the wasm memory (it only grows, so this is the peak). */
  peakMemoryBytes?: number
}

export interface ProgramError {
  name: string
  message: string
  line?: number
  stack?: string
}

export type ProgramOutcome =
  | { ok: true; value: unknown; logs: string[]; stats: RunStats }
  | { ok: false; error: ProgramError; logs: string[]; stats: RunStats }
