// One Sandbox per plugin instance: its own worker threads and timers, nothing process-wide but
// the compiled wasm (wasm.ts). See index.ts for the design.
import { captureClock, type Clock } from '../util/clock'
import { WorkerPool, type SandboxWorker } from './pool'
import { describeError } from '../util/describe-error'
import { MAX_ERROR_CHARS, normalizeLimits } from './limits'
import { Session } from './session'
import type { ProgramError, ProgramOutcome, RunOptions } from './types'

export interface SandboxOptions {
  /** Deadlines, watchdogs and stats.wallMs; default: the timers installed when the Sandbox is made. */
  clock?: Clock
  /** Worker threads at most, one program each; more programs queue (the wait counts in stats.wallMs, not in timeoutMs). Default 8. */
  maxWorkers?: number
  /** Idle workers kept warm. Default 2. */
  idleKeep?: number
}

export class Sandbox {
  private readonly clock: Clock
  private readonly pool: WorkerPool
  private nextRunId = 1

  constructor(o: SandboxOptions = {}) {
    // captured now, so fake timers installed later (tests) do not stop the deadlines
    this.clock = o.clock ?? captureClock()
    this.pool = new WorkerPool(Math.max(1, o.maxWorkers ?? 8), Math.max(0, o.idleKeep ?? 2))
  }

  /** Worker threads alive or starting. */
  get workerCount(): number {
    return this.pool.size
  }

  /**
   * Run `code` (the body of an async function) in a fresh QuickJS instance on a worker thread.
   * Never throws, never hangs: every path ends in a ProgramOutcome.
   */
  async run(code: string, opts: RunOptions): Promise<ProgramOutcome> {
    const started = this.clock.monotonic()
    let session: Session | undefined
    try {
      const limits = normalizeLimits(opts.limits)
      if (opts.signal?.aborted) return this.failed(started, { name: 'AbortError', message: 'the program was aborted by the host' })
      let worker: SandboxWorker
      try {
        worker = await this.pool.acquire(limits.pages)
      } catch (e) {
        return this.failed(started, { name: 'SandboxError', message: `could not start the sandbox: ${describeError(e, MAX_ERROR_CHARS)}` })
      }
      session = new Session(this.clock, this.pool, worker, this.nextRunId++, String(code), opts, limits, started)
      return await session.done
    } catch (e) {
      return this.failed(started, { name: 'SandboxError', message: `internal sandbox failure: ${describeError(e, MAX_ERROR_CHARS)}` }, session)
    }
  }

  /** Compile the wasm and start a warm worker ahead of the first program. */
  warmUp(): Promise<void> {
    return this.pool.warmUp()
  }

  /** Terminate every worker; running programs end with SandboxError. A later run() starts workers again. */
  shutdown(): Promise<void> {
    return this.pool.shutdown()
  }

  private failed(started: number, error: ProgramError, s?: Session): ProgramOutcome {
    return { ok: false, error, logs: s?.logs ?? [], stats: { wallMs: this.clock.monotonic() - started, toolCalls: s?.toolCalls ?? 0 } }
  }
}
