// The host side of one program: proxies its tool calls to the host tools, owns the deadline and
// the watchdog, and turns whatever happens into a ProgramOutcome.
import { AsyncResource } from 'node:async_hooks'
import type { Clock, Timer } from '../util/clock'
import type { SandboxWorker, WorkerEvent, WorkerPool } from './pool'
import { describeError } from '../util/describe-error'
import { MAX_ERROR_CHARS, MAX_MODULE_BYTES, WATCHDOG_GRACE_MS, type Limits } from './limits'
import type { FlatReplies } from './protocol'
import type { HostTool, ProgramError, ProgramOutcome, RunOptions } from './types'

const named = (name: string, message: string) => Object.assign(new Error(message), { name })

export class Session {
  readonly done: Promise<ProgramOutcome>
  readonly logs: string[] = []
  toolCalls = 0
  private resolve!: (o: ProgramOutcome) => void
  private finished = false
  /** the limit violation that ended the program, over what the worker reports */
  private fatal?: ProgramError
  private readonly abort = new AbortController()
  private outbox: FlatReplies = []
  private flushQueued = false
  private readonly deadlineTimer: Timer
  private watchdogTimer: Timer
  private readonly onAbort = () => this.hostAbort()

  constructor(
    private readonly clock: Clock,
    private readonly pool: WorkerPool,
    private readonly worker: SandboxWorker,
    private readonly id: number,
    code: string,
    private readonly opts: RunOptions,
    private readonly limits: Limits,
    private readonly started: number,
  ) {
    this.done = new Promise((resolve) => { this.resolve = resolve })
    const names = Object.keys(opts.tools ?? {}).filter((k) => typeof opts.tools[k] === 'function')
    const { maxToolOutputBytes: _, ...workerLimits } = limits
    // the worker's messages arrive in the pool's async context; bound here, the program's tool calls run
    // in the caller's (a turn's payer, SPEC §22, reaches a vision question a program asks)
    worker.listener = AsyncResource.bind((e: WorkerEvent) => this.onEvent(e))
    worker.post(['run', id, code, JSON.stringify(names), workerLimits])
    // The worker enforces the deadline itself; these timers stop the tools and catch a stuck worker
    this.deadlineTimer = clock.setTimeout(() => this.abortTools('TimeoutError', 'the program timed out'), limits.timeoutMs)
    this.watchdogTimer = clock.setTimeout(() => this.kill({
      name: 'TimeoutError',
      message: `the program exceeded its time limit of ${limits.timeoutMs} ms and was stopped by the watchdog`,
    }), limits.timeoutMs + WATCHDOG_GRACE_MS)
    opts.signal?.addEventListener('abort', this.onAbort, { once: true })
  }

  private onEvent(e: WorkerEvent) {
    if (this.finished) return
    if (e.type === 'exit') {
      const oom = /ERR_WORKER_OUT_OF_MEMORY/.test(String((e.error as { code?: string }).code))
      return this.end(oom
        ? { ok: false, error: { name: 'MemoryLimitError', message: 'the sandbox worker ran out of memory' } }
        : { ok: false, error: { name: 'SandboxError', message: e.error.message } })
    }
    const m = e.data
    if (m[0] === 'calls') {
      if (m[1] !== this.id) return
      this.addLogs(m[3])
      const calls = m[2]
      for (let i = 0; i < calls.length; i += 3) this.callTool(calls[i] as number, calls[i + 1] as string, calls[i + 2] as string | null)
    } else if (m[0] === 'module') {
      if (m[1] === this.id) this.loadModule(m[2], m[3])
    } else if (m[0] === 'done') {
      if (m[1] !== this.id) return
      this.addLogs(m[3])
      this.toolCalls = Math.max(this.toolCalls, m[4])
      const result = m[2]
      const peak = m[5]
      if (this.fatal) return this.end({ ok: false, error: this.fatal }, peak)
      if ('name' in result) return this.end({ ok: false, error: result }, peak)
      let value: unknown = null
      try {
        if (result.json != null) value = JSON.parse(result.json)
      } catch (err) {
        return this.end({ ok: false, error: { name: 'SandboxError', message: `unreadable result: ${describeError(err, MAX_ERROR_CHARS)}` } }, peak)
      }
      this.end({ ok: true, value }, peak)
    }
  }

  private callTool(id: number, name: string, json: string | null) {
    if (!Object.prototype.hasOwnProperty.call(this.opts.tools, name)) return this.reply(id, 1, ['TypeError', `unknown tool "${name}"`])
    const tool: HostTool = this.opts.tools[name]
    this.toolCalls++
    let p: Promise<unknown>
    try {
      p = Promise.resolve(tool(json === null ? undefined : JSON.parse(json), { signal: this.abort.signal }))
    } catch (e) {
      p = Promise.reject(e)
    }
    p.then(
      (out) => this.toolDone(id, name, out),
      (e) => this.reply(id, 1, ['ToolError', `tool "${name}" failed: ${describeError(e, MAX_ERROR_CHARS)}`]),
    )
  }

  /** A module the program imports: its text, or a named error the program can catch. */
  private loadModule(seq: number, url: string) {
    const source = this.opts.modules
    const load = source
      ? Promise.resolve().then(() => source(url, this.abort.signal))
      : Promise.reject(named('ModuleNotFound', 'imports are not available here'))
    load.then((text) => {
      const bytes = Buffer.byteLength(text)
      if (bytes > MAX_MODULE_BYTES) throw named('ModuleTooLarge', `${url.slice(0, 200)} is ${bytes} bytes; a module may have ${MAX_MODULE_BYTES}`)
      return text
    }).then(
      (text) => { if (!this.finished) this.worker.postModule([this.id, seq, text, '', '']) },
      (e) => {
        if (this.finished) return
        const name = typeof e?.name === 'string' && /^[A-Z]\w{0,40}$/.test(e.name) && e.name !== 'Error' ? e.name : 'ImportError'
        this.worker.postModule([this.id, seq, null, name, describeError(e, MAX_ERROR_CHARS)])
      },
    )
  }

  private toolDone(id: number, name: string, out: unknown) {
    if (this.finished) return
    let json: string | undefined
    try {
      json = JSON.stringify(out)
    } catch (e) {
      return this.reply(id, 1, ['ToolError', `tool "${name}" failed: its output is not JSON-serializable (${describeError(e, MAX_ERROR_CHARS)})`])
    }
    if (json === undefined) return this.reply(id, 0, null)
    const max = this.limits.maxToolOutputBytes
    if (json.length > max / 3) {
      const bytes = Buffer.byteLength(json)
      if (bytes > max) return this.stopWith({ name: 'OutputTooLarge', message: `tool "${name}" output is ${bytes} bytes of JSON; the limit is ${max}` })
    }
    this.reply(id, 0, json)
  }

  // Results settled in the same microtask burst go to the worker in one message
  private reply(id: number, kind: 0 | 1, payload: string | null | [string, string]) {
    // Past the deadline or an abort, tool failures caused by the abort must not reach the program
    if (this.finished || this.abort.signal.aborted) return
    this.outbox.push(id, kind, payload)
    if (this.flushQueued) return
    this.flushQueued = true
    this.clock.queueMicrotask(() => {
      this.flushQueued = false
      if (this.finished || !this.outbox.length) return
      const batch = this.outbox
      this.outbox = []
      this.worker.post(['res', this.id, batch])
    })
  }

  private addLogs(lines: string[] | null) {
    if (lines) for (const l of lines) this.logs.push(l)
  }

  private abortTools(name: string, message: string) {
    if (!this.abort.signal.aborted) this.abort.abort(named(name, message))
  }

  private hostAbort() {
    this.stopProgram({ name: 'AbortError', message: 'the program was aborted by the host' })
  }

  /** A limit violation seen on the host side ends the program: the program cannot catch it (SPEC §10). */
  private stopWith(error: ProgramError) {
    if (this.finished || this.fatal) return
    this.fatal = error
    this.stopProgram(error)
  }

  private stopProgram(error: ProgramError) {
    if (this.finished) return
    this.abortTools(error.name, error.message)
    this.worker.interrupt(this.id)
    this.worker.post(['abort', this.id])
    this.watchdogTimer.cancel()
    this.watchdogTimer = this.clock.setTimeout(() => this.kill(error), WATCHDOG_GRACE_MS)
  }

  /** The worker is stuck (e.g. in a long native op inside wasm): terminate it; the pool replaces it. */
  private kill(error: ProgramError) {
    if (this.finished) return
    this.worker.listener = null
    this.worker.kill()
    this.end({ ok: false, error })
  }

  private end(o: { ok: true; value: unknown } | { ok: false; error: ProgramError }, peak?: number | null) {
    if (this.finished) return
    this.finished = true
    this.deadlineTimer.cancel()
    this.watchdogTimer.cancel()
    this.opts.signal?.removeEventListener('abort', this.onAbort)
    this.abortTools('AbortError', 'the program has ended')
    this.pool.release(this.worker)
    const stats = { wallMs: this.clock.monotonic() - this.started, toolCalls: this.toolCalls, ...(peak != null ? { peakMemoryBytes: peak } : {}) }
    this.resolve({ ...o, logs: this.logs, stats })
  }
}
