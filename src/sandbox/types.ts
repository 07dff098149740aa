export interface SandboxLimits {
  /** Wall time of the whole program, including time spent awaiting host tools. */
  timeoutMs: number
  /** Cap of the program's wasm linear memory. Values under MIN_MEMORY_BYTES (20 MiB) are raised to it. */
  memoryLimitBytes: number
  /** Host tool calls per program; the call over the limit ends the program (ToolCallLimitError, not catchable). */
  maxToolCalls: number
  /** UTF-8 bytes of each tool input as JSON (InputTooLarge, catchable). */
  maxToolInputBytes: number
  /** UTF-8 bytes of each tool output as JSON (OutputTooLarge, catchable). */
  maxToolOutputBytes: number
  /** UTF-8 bytes of the program's return value as JSON (ResultTooLarge). */
  maxResultBytes: number
  /** Bytes of captured console output; default 64 KiB. A truncation marker line is added past it. */
  maxLogBytes?: number
}

export type HostTool = (input: unknown, opts: { signal: AbortSignal }) => Promise<unknown>

export interface RunOptions {
  tools: Record<string, HostTool>
  limits: SandboxLimits
  signal?: AbortSignal
}

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
