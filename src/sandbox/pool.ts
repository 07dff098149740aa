// The worker threads of one Sandbox: one program per worker (so a watchdog kill never takes
// another program down), a few kept idle and warm, more started on demand up to a maximum, then
// programs queue. Also how a worker thread is started, from the build or from the TS sources.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads'
import { compileWasm } from './wasm'
import { QUICKJS_STACK_BYTES, WORKER_STACK_MB } from './limits'
import type { HostMessage, ModuleReply, WorkerData, WorkerMessage } from './protocol'
import { FLAG_COUNT, FLAG_INTERRUPT, FLAG_MODULE, FLAG_POSTED } from './protocol'

/** How long the worker spins for a tool result before sleeping (see worker/main.ts). */
export const SPIN_MS = 0.3
const DEFAULT_PAGES = 1024
const SHUT_DOWN = 'the sandbox was shut down'

// The bundle (lib/index.js) has the worker built beside it (scripts/build.mjs); from the TS
// sources there is none, and dev-worker.ts bundles worker/main.ts in memory instead.
const BUILT_WORKER = join(__dirname, 'sandbox-worker.js')
let built: boolean | undefined

function newWorker(workerData: WorkerData): Worker {
  built ??= existsSync(BUILT_WORKER)
  const resourceLimits = { stackSizeMb: WORKER_STACK_MB }
  const transferList = [workerData.modules]
  if (built) return new Worker(BUILT_WORKER, { workerData, resourceLimits, transferList })
  // by a computed path, so the bundle leaves this dev-only module (and esbuild) out
  const { startDevWorker } = require(join(__dirname, 'dev-worker')) as typeof import('./dev-worker')
  return startDevWorker({ workerData, resourceLimits, transferList })
}

export type WorkerEvent =
  | { type: 'message'; data: WorkerMessage }
  | { type: 'exit'; error: Error }

/** One QuickJS worker thread, running at most one program at a time. */
export class SandboxWorker {
  readonly worker: Worker
  readonly ready: Promise<void>
  alive = true
  exited: Promise<unknown> = Promise.resolve()
  /** Receives the worker's messages and its death while a program runs on it. */
  listener: ((e: WorkerEvent) => void) | null = null
  private readonly flags: Int32Array
  private readonly modules: MessagePort

  constructor(wasmModule: WebAssembly.Module, pages: number, warm: boolean, readonly epoch: number, private readonly onDeath: (w: SandboxWorker) => void) {
    const shared = new SharedArrayBuffer(4 * FLAG_COUNT)
    this.flags = new Int32Array(shared)
    const channel = new MessageChannel()
    this.modules = channel.port1
    this.worker = newWorker({ wasmModule, flags: shared, modules: channel.port2, pages, warm, spinMs: SPIN_MS, stackBytes: QUICKJS_STACK_BYTES })
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('message', (m: WorkerMessage) => m[0] === 'ready' && m[1] ? reject(new Error(String(m[1]))) : resolve())
      this.worker.once('exit', () => reject(new Error('the sandbox worker exited during startup')))
    })
    this.ready.catch(() => this.kill())
    this.worker.on('message', (m: WorkerMessage) => {
      if (m[0] !== 'ready') this.listener?.({ type: 'message', data: m })
    })
    this.worker.on('error', (error) => this.died(error))
    this.worker.on('exit', (code) => this.died(new Error(`the sandbox worker exited (code ${code})`)))
  }

  post(message: HostMessage) {
    this.worker.postMessage(message)
    Atomics.add(this.flags, FLAG_POSTED, 1)
  }

  /** A module's text for a worker blocked in its module loader (worker/modules.ts). */
  postModule(reply: ModuleReply) {
    this.modules.postMessage(reply)
    Atomics.add(this.flags, FLAG_MODULE, 1)
    Atomics.notify(this.flags, FLAG_MODULE)
  }

  /** Ask a busy guest to stop at the interrupt handler's next poll. */
  interrupt(runId: number) {
    Atomics.store(this.flags, FLAG_INTERRUPT, runId)
  }

  /** Terminate the worker; a program running on it ends with `reason`. */
  kill(reason = 'the sandbox worker was stopped') {
    this.died(new Error(reason))
  }

  private died(error: Error) {
    if (!this.alive) return
    this.alive = false
    this.onDeath(this)
    this.exited = this.worker.terminate().catch(() => {})
    this.modules.close()
    const listener = this.listener
    this.listener = null
    listener?.({ type: 'exit', error })
  }
}

type Waiter = { resolve: (w: SandboxWorker) => void; reject: (e: unknown) => void }

export class WorkerPool {
  /** Bumped by shutdown(): workers of an older epoch are not reused. */
  private epoch = 0
  private starting = 0
  private readonly all = new Set<SandboxWorker>()
  private idle: SandboxWorker[] = []
  private waiters: Waiter[] = []
  private warming: Promise<void> | undefined
  /** The memory size of the latest program, for the instances idle workers prepare. */
  private pages = DEFAULT_PAGES
  private readonly forget = (w: SandboxWorker) => { this.all.delete(w) }

  /** `idleKeep` idle workers are kept warm; more start on demand up to `maxWorkers`, then programs queue. */
  constructor(private readonly maxWorkers: number, private readonly idleKeep: number) {}

  /** Worker threads alive or starting. */
  get size(): number {
    return this.all.size + this.starting
  }

  /** `warm`: the worker runs a throwaway program first; for workers started ahead of need. */
  private async spawn(warm = false): Promise<SandboxWorker> {
    const epoch = this.epoch
    this.starting++
    let w: SandboxWorker
    try {
      w = new SandboxWorker(await compileWasm(), this.pages, warm, epoch, this.forget)
      this.all.add(w)
    } finally {
      this.starting--
    }
    await w.ready
    if (epoch !== this.epoch) {
      w.kill(SHUT_DOWN)
      throw new Error(SHUT_DOWN)
    }
    return w
  }

  private spawnFor(waiter: Waiter) {
    this.spawn().then(waiter.resolve, waiter.reject)
  }

  /** A worker for one program; `pages` lets idle workers pre-instantiate the right memory size. */
  acquire(pages: number): Promise<SandboxWorker> {
    this.pages = pages
    let w: SandboxWorker | undefined
    // the worker idle the longest is the likeliest to have its next instance ready
    while ((w = this.idle.shift())) {
      if (w.alive) {
        w.worker.ref()
        return Promise.resolve(w)
      }
    }
    if (this.size < this.maxWorkers) return this.spawn()
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }))
  }

  release(w: SandboxWorker) {
    w.listener = null
    const waiter = this.waiters.shift()
    if (!w.alive) {
      if (w.epoch !== this.epoch) return waiter && this.spawnFor(waiter)
      if (waiter) this.spawnFor(waiter)
      else if (this.idle.length === 0) this.spawn(true).then((fresh) => this.park(fresh), () => {})
      return
    }
    if (waiter) return waiter.resolve(w)
    if (this.idle.length >= this.idleKeep) return w.kill()
    this.park(w)
  }

  private park(w: SandboxWorker) {
    if (!w.alive) return
    w.worker.unref()
    this.idle.push(w)
  }

  warmUp(): Promise<void> {
    if (this.idle.some((w) => w.alive)) return Promise.resolve()
    this.warming ??= this.spawn(true).then((w) => this.park(w)).finally(() => { this.warming = undefined })
    return this.warming
  }

  async shutdown() {
    this.epoch++
    const workers = [...this.all]
    this.idle = []
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error(SHUT_DOWN))
    for (const w of workers) w.kill(SHUT_DOWN)
    await Promise.all(workers.map((w) => w.exited))
  }
}
