// QuickJS sandbox for codemode programs (SPEC §8). Design, in short:
// - Every program gets a fresh QuickJS wasm instance with its own WebAssembly.Memory whose
//   maximum is the memory limit (the only real byte cap in quickjs-emscripten 0.32). Instances
//   are dropped, never disposed. memoryLimitBytes below MIN_MEMORY_BYTES (20 MiB) is raised to it:
//   the build's initial memory alone is 16 MiB (5 MiB of it C stack).
// - Instances live in worker threads (pool.ts, one program per worker), so a native op that
//   overruns the deadline (huge JSON.parse loops, 'x'.repeat(5e7)) is ended by terminate() at
//   timeoutMs + WATCHDOG_GRACE_MS; the pool replaces the worker. The worker code is a string
//   (worker-source.ts) evaluated with `eval: true`, so it loads the same from TS sources and the
//   esbuild bundle; its packages are required by paths the host resolves.
// - Host tools run on the calling thread; the worker proxies calls as JSON strings in batches.
// - Error names: TimeoutError (deadline, also while awaiting tools, which are aborted),
//   DeadlockError (awaiting a promise nothing can settle: no tool in flight, reported at once),
//   MemoryLimitError, StackOverflowError, ToolCallLimitError (ends the program, not catchable),
//   InputTooLarge / OutputTooLarge / ToolError (catchable in the program), ResultTooLarge,
//   ResultNotSerializable, AbortError (opts.signal), SandboxError (worker failure or shutdown).
//   Uncaught program errors keep their name and message, plus `line` when the stack has one.
import { shutdown, warmUp as warm } from './pool'

export { runProgram } from './run'
export { MIN_MEMORY_BYTES, DEFAULT_LOG_BYTES, WATCHDOG_GRACE_MS } from './limits'
export type { HostTool, ProgramError, ProgramOutcome, RunOptions, RunStats, SandboxLimits } from './types'

/** Compile the wasm and start a worker ahead of the first program. */
export function warmUp(): Promise<void> {
  return warm()
}

/** Terminate all workers (plugin dispose, tests); running programs end with SandboxError. A later runProgram starts them again. */
export function shutdownSandbox(): Promise<void> {
  return shutdown()
}
