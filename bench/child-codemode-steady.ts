// Child of codemode.ts: steady-state costs of the sandbox in a process of its own (no heap left
// over from other benchmarks to collect in the middle of a measurement), each beside the baseline
// it is judged against, all interleaved in the same rounds.
import { Worker } from 'node:worker_threads'
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core'
import variant from '@jitl/quickjs-wasmfile-release-sync'
import { Sandbox, type ProgramOutcome } from '../src/sandbox'
import { SPIN_MS } from '../src/sandbox/pool'
import { compileWasm } from '../src/sandbox/wasm'
import { useWasm } from '../src/sandbox/worker/instance'
import { Program, type WorkerEnv } from '../src/sandbox/worker/program'
import type { FlatCalls, FlatReplies } from '../src/sandbox/protocol'
import { interleave, median, now, percentile, report } from './measure'
import { LIMITS } from './sandbox-limits'

const tools = { t: async (x: unknown) => x }

async function run(sandbox: Sandbox, code: string, expect: unknown): Promise<number> {
  const t = now()
  const out = await sandbox.run(code, { tools, limits: LIMITS })
  const ms = now() - t
  if (!out.ok) {
    const { error } = out as Extract<ProgramOutcome, { ok: false }>
    throw new Error(`${error.name}: ${error.message}`)
  }
  if (JSON.stringify(out.value) !== JSON.stringify(expect)) throw new Error(`unexpected result ${JSON.stringify(out.value).slice(0, 200)}`)
  return ms
}

// The floor under the sandbox's protocol, without QuickJS: the same messages (protocol.ts) and
// the same wait as worker/main.ts (spin on the shared counter, draining only when it moves, for
// SPIN_MS, then sleep until the next message), the host answering in a microtask batch and
// bumping the counter, as pool.ts and session.ts do.
const FLOOR_WORKER = `
const { parentPort, workerData, receiveMessageOnPort } = require('worker_threads')
const flags = new Int32Array(workerData.flags)
const SPIN_MS = workerData.spinMs
let left = 0, next = 0, waiting = false
const call = () => {
  if (left === 0) {
    parentPort.postMessage(['done'])
    return false
  }
  left--
  parentPort.postMessage(['calls', 1, [++next, 't', JSON.stringify(next)], null])
  const until = performance.now() + SPIN_MS
  let seen = -1
  do {
    const f = Atomics.load(flags, 0)
    if (f !== seen) {
      seen = f
      if (receiveMessageOnPort(parentPort) !== undefined) return true
    }
  } while (performance.now() < until)
  waiting = true
  return false
}
parentPort.on('message', (m) => {
  if (m[0] === 'ping') return parentPort.postMessage(['pong'])
  if (m[0] === 'calls') { left = m[1]; next = 0 } else if (!waiting) return
  waiting = false
  while (call());
})`

function floorWorker() {
  const shared = new SharedArrayBuffer(8)
  const flags = new Int32Array(shared)
  const w = new Worker(FLOOR_WORKER, { eval: true, workerData: { flags: shared, spinMs: SPIN_MS } })
  let waiting: (() => void) | undefined
  let outbox: unknown[] = []
  const flush = () => {
    const batch = outbox
    outbox = []
    w.postMessage(['res', 1, batch])
    Atomics.add(flags, 0, 1)
  }
  w.on('message', (m: any[]) => {
    if (m[0] !== 'calls') return waiting?.()
    const calls = m[2]
    for (let i = 0; i < calls.length; i += 3) {
      const id = calls[i]
      tools.t(JSON.parse(calls[i + 2])).then((out) => {
        if (!outbox.length) queueMicrotask(flush)
        outbox.push(id, 0, JSON.stringify(out))
      })
    }
  })
  const send = (m: unknown[]) => new Promise<void>((resolve) => { waiting = resolve; w.postMessage(m) })
  return { roundTrip: () => send(['ping']), calls: (n: number) => send(['calls', n]), stop: () => w.terminate() }
}

// A bare fresh QuickJS instance evaluating `1`: what the worker does at least once per program
// (a new wasm instance with its own capped Memory, a runtime, a context, one eval), no worker.
async function bareInstance(wasmModule: WebAssembly.Module) {
  const memory = new WebAssembly.Memory({ initial: 256, maximum: Math.floor(LIMITS.memoryLimitBytes / 65536) })
  const mod = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmModule, wasmMemory: memory }))
  const ctx = mod.newRuntime().newContext()
  const v = ctx.unwrapResult(ctx.evalCode('1'))
  if (ctx.getNumber(v) !== 1) throw new Error('bare QuickJS did not evaluate 1')
}

// The QuickJS side of the same 1,000 calls, without threads: the worker's own Program, its calls
// answered in place (JSON in, JSON out, as the host does). Times the calls only, not the setup.
async function inThread(series: string, sum: number): Promise<number> {
  let calls: FlatCalls = []
  let result: unknown
  const env: WorkerEnv = { flags: new Int32Array(2), stackBytes: 1 << 20, post: (m) => { if (m[0] === 'calls') calls = m[2]; else result = m[2] }, ended() {} }
  const lim = { timeoutMs: LIMITS.timeoutMs, pages: Math.floor(LIMITS.memoryLimitBytes / 65536), maxToolCalls: LIMITS.maxToolCalls, maxToolInputBytes: LIMITS.maxToolInputBytes, maxResultBytes: LIMITS.maxResultBytes, maxLogBytes: 65536 }
  const p = new Program(-1, lim, env)
  await p.start(series, '["t"]')
  const t = now()
  while (!p.finished) {
    p.pump()
    const replies: FlatReplies = []
    for (let i = 0; i < calls.length; i += 3) replies.push(calls[i], 0, JSON.stringify(JSON.parse(calls[i + 2] as string)))
    calls = []
    p.settle(replies)
  }
  const ms = now() - t
  if (JSON.stringify(result) !== JSON.stringify({ json: String(sum) })) throw new Error(`in-thread program: ${JSON.stringify(result)}`)
  return ms
}

async function main() {
  const full = process.argv[2] === 'full'
  const sandbox = new Sandbox()
  const wasmModule = await compileWasm()
  useWasm(wasmModule)
  await sandbox.warmUp()
  const floor = floorWorker()
  for (let i = 0; i < 30; i++) {
    await run(sandbox, 'return 1', 1)
    await bareInstance(wasmModule)
  }
  // Back to back in blocks of 10, the blocks alternating: each program's next instance is made
  // while the host handles the result, as in a busy process; every program is timed on its own.
  // 'spaced' leaves 5 ms (untimed) before each program, as model turns do: the instance is ready.
  const single: number[] = []
  const bare: number[] = []
  const spaced: number[] = []
  const block = async (times: number[], fn: () => Promise<unknown>, gapMs = 0) => {
    for (let i = 0; i < 10; i++) {
      if (gapMs) await new Promise((resolve) => setTimeout(resolve, gapMs))
      const t = now()
      await fn()
      times.push(now() - t)
    }
  }
  await interleave({
    single: () => block(single, () => run(sandbox, 'return 1', 1)),
    bare: () => block(bare, () => bareInstance(wasmModule)),
    spaced: () => block(spaced, () => run(sandbox, 'return 1', 1), 5),
  }, full ? 50 : 20, 0)

  const sum = 1000 * 999 / 2
  const series = `let s = 0\nfor (let i = 0; i < 1000; i++) s += await tools.t(i)\nreturn s`
  const parallel = `const r = await Promise.all(Array.from({ length: 1000 }, (_, i) => tools.t(i)))\nreturn r.every((v, i) => v === i) ? r.reduce((a, b) => a + b, 0) : -1`
  let parallelError: string | undefined
  const t = await interleave({
    empty: () => run(sandbox, 'return 1', 1),
    series: () => run(sandbox, series, sum),
    parallel: () => run(sandbox, parallel, sum).catch((e) => { parallelError = String(e?.message ?? e) }),
    floorCalls: () => floor.calls(1000),
    floorRoundTrip: () => floor.roundTrip(),
    inThread: () => inThread(series, sum),
  }, full ? 25 : 15, 3)
  await sandbox.shutdown()
  await floor.stop()
  report({
    single: median(single), singleP90: percentile(single, 90), bare: median(bare), spaced: median(spaced),
    empty: median(t.empty), series: median(t.series), parallel: median(t.parallel), parallelError,
    bestSeriesOverhead: Math.min(...t.series) - Math.min(...t.empty),
    floorRoundTrip: median(t.floorRoundTrip), floorCalls: median(t.floorCalls), inThread: median(t.inThread),
  })
}

main().catch((e) => { console.error(e); process.exit(1) })
