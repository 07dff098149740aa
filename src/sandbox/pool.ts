import { Worker } from 'node:worker_threads'
import { readFileSync } from 'node:fs'
import { PRELUDE } from './prelude'
import { WORKER_SOURCE } from './worker-source'
import { QUICKJS_STACK_BYTES, WORKER_STACK_MB } from './limits'

/**
 * Idle workers kept warm; more start on demand up to MAX_WORKERS, then programs queue (the
 * queue wait counts in stats.wallMs, not in the program's timeoutMs). One program per worker,
 * so a watchdog kill never takes another program down with it.
 */
const IDLE_KEEP = 2
const MAX_WORKERS = 8
/** How long the worker spins for a tool result before sleeping (see worker-source.ts). */
const SPIN_MS = 0.3
const DEFAULT_PAGES = 1024

export type WorkerEvent =
  | { type: 'message'; data: unknown[] }
  | { type: 'exit'; error: Error }

/** One QuickJS worker thread, running at most one program at a time. */
export class SandboxWorker {
  readonly worker: Worker
  readonly ready: Promise<void>
  alive = true
  readonly epoch = pool.epoch
  exited: Promise<unknown> = Promise.resolve()
  /** Receives the worker's messages and its death while a program runs on it. */
  listener: ((e: WorkerEvent) => void) | null = null
  private readonly flags: Int32Array

  constructor(wasmModule: WebAssembly.Module, pages: number, warm: boolean) {
    const shared = new SharedArrayBuffer(8)
    this.flags = new Int32Array(shared)
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        wasmModule,
        flags: shared,
        pages,
        warm,
        prelude: PRELUDE,
        spinMs: SPIN_MS,
        stackBytes: QUICKJS_STACK_BYTES,
        corePath: require.resolve('quickjs-emscripten-core'),
        variantPath: require.resolve('@jitl/quickjs-wasmfile-release-sync'),
      },
      resourceLimits: { stackSizeMb: WORKER_STACK_MB },
    })
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('message', (m: unknown[]) => m[1] ? reject(new Error(String(m[1]))) : resolve())
      this.worker.once('exit', () => reject(new Error('the sandbox worker exited during startup')))
    })
    this.ready.catch(() => this.kill())
    this.worker.on('message', (m: unknown[]) => {
      if (m[0] !== 'ready') this.listener?.({ type: 'message', data: m })
    })
    this.worker.on('error', (error) => this.died(error))
    this.worker.on('exit', (code) => this.died(new Error(`the sandbox worker exited (code ${code})`)))
  }

  post(message: unknown[]) {
    this.worker.postMessage(message)
    Atomics.add(this.flags, 0, 1)
  }

  /** Ask a busy guest to stop at the interrupt handler's next poll. */
  interrupt(runId: number) {
    Atomics.store(this.flags, 1, runId)
  }

  /** Terminate the worker; a program running on it ends with `reason`. */
  kill(reason = 'the sandbox worker was stopped') {
    this.died(new Error(reason))
  }

  private died(error: Error) {
    if (!this.alive) return
    this.alive = false
    pool.all.delete(this)
    this.exited = this.worker.terminate().catch(() => {})
    const listener = this.listener
    this.listener = null
    listener?.({ type: 'exit', error })
  }
}

const pool = {
  epoch: 0,
  starting: 0,
  all: new Set<SandboxWorker>(),
  idle: [] as SandboxWorker[],
  waiters: [] as Array<{ resolve: (w: SandboxWorker) => void; reject: (e: unknown) => void }>,
  wasm: undefined as Promise<WebAssembly.Module> | undefined,
  warming: undefined as Promise<void> | undefined,
  pages: DEFAULT_PAGES,
}

function compileWasm() {
  // Compiled once per process; workers receive the Module and share its compiled code
  if (!pool.wasm) {
    pool.wasm = (async () => WebAssembly.compile(readFileSync(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm'))))()
    pool.wasm.catch(() => { pool.wasm = undefined })
  }
  return pool.wasm
}

/** `warm`: the worker runs a throwaway program first; for workers started ahead of need. */
async function spawn(warm = false): Promise<SandboxWorker> {
  const epoch = pool.epoch
  pool.starting++
  let w: SandboxWorker
  try {
    w = new SandboxWorker(await compileWasm(), pool.pages, warm)
    pool.all.add(w)
  } finally {
    pool.starting--
  }
  await w.ready
  if (epoch !== pool.epoch) {
    w.kill('the sandbox was shut down')
    throw new Error('the sandbox was shut down')
  }
  return w
}

function spawnFor(waiter: (typeof pool.waiters)[number]) {
  spawn().then(waiter.resolve, waiter.reject)
}

/** A worker for one program; `pages` lets idle workers pre-instantiate the right memory size. */
export function acquire(pages: number): Promise<SandboxWorker> {
  pool.pages = pages
  let w: SandboxWorker | undefined
  // the worker idle the longest is the likeliest to have its next instance ready
  while ((w = pool.idle.shift())) {
    if (w.alive) {
      w.worker.ref()
      return Promise.resolve(w)
    }
  }
  if (pool.all.size + pool.starting < MAX_WORKERS) return spawn()
  return new Promise((resolve, reject) => pool.waiters.push({ resolve, reject }))
}

export function release(w: SandboxWorker) {
  w.listener = null
  const waiter = pool.waiters.shift()
  if (!w.alive) {
    if (w.epoch !== pool.epoch) return waiter && spawnFor(waiter)
    if (waiter) spawnFor(waiter)
    else if (pool.idle.length === 0) spawn(true).then((fresh) => idle(fresh), () => {})
    return
  }
  if (waiter) return waiter.resolve(w)
  if (pool.idle.length >= IDLE_KEEP) return w.kill()
  idle(w)
}

function idle(w: SandboxWorker) {
  if (!w.alive) return
  w.worker.unref()
  pool.idle.push(w)
}

export function warmUp(): Promise<void> {
  if (pool.idle.some((w) => w.alive)) return Promise.resolve()
  pool.warming ??= spawn(true).then(idle).finally(() => { pool.warming = undefined })
  return pool.warming
}

export async function shutdown() {
  pool.epoch++
  const workers = [...pool.all]
  pool.idle = []
  for (const waiter of pool.waiters.splice(0)) waiter.reject(new Error('the sandbox was shut down'))
  for (const w of workers) w.kill('the sandbox was shut down')
  await Promise.all(workers.map((w) => w.exited))
}
