// QuickJS sandbox for codemode programs (SPEC §8). Design, in short:
// - A Sandbox (sandbox.ts) belongs to one plugin instance: its worker threads and timers end with
//   shutdown(). Only the compiled wasm is shared by the process (immutable code, wasm.ts).
// - Every program gets a fresh QuickJS wasm instance with its own WebAssembly.Memory whose
//   maximum is the memory limit (the only real byte cap in quickjs-emscripten 0.32). Instances
//   are dropped, never disposed. memoryLimitBytes below MIN_MEMORY_BYTES (20 MiB) is raised to it:
//   the build's initial memory alone is 16 MiB (5 MiB of it C stack).
// - Instances live in worker threads (pool.ts, one program per worker), so a native op that
//   overruns the deadline (huge JSON.parse loops, 'x'.repeat(5e7)) is ended by terminate() at
//   timeoutMs + WATCHDOG_GRACE_MS; the pool replaces the worker. The worker is worker/main.ts,
//   built to lib/sandbox-worker.js beside the bundle.
// - Host tools run on the calling thread; the worker proxies calls as JSON strings in batches
//   (protocol.ts). Per call, the worker enters QuickJS through its FFI directly (worker/vm.ts).
// - Error names: TimeoutError (deadline, also while awaiting tools, which are aborted),
//   DeadlockError (awaiting a promise nothing can settle: no tool in flight, reported at once),
//   MemoryLimitError, StackOverflowError, ToolCallLimitError (ends the program, not catchable),
//   InputTooLarge / OutputTooLarge end the program like every limit (SPEC §10); ToolError is catchable; ResultTooLarge,
//   ResultNotSerializable, AbortError (opts.signal), SandboxError (worker failure or shutdown).
//   Uncaught program errors keep their name and message, plus `line` when the stack has one.
export { Sandbox, type SandboxOptions } from './sandbox'
export { MIN_MEMORY_BYTES, DEFAULT_LOG_BYTES, WATCHDOG_GRACE_MS } from './limits'
export type { HostTool, ProgramError, ProgramOutcome, RunOptions, RunStats, SandboxLimits } from './types'
