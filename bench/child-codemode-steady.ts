// Child of codemode.ts: steady-state costs of the sandbox in a process of its own (no heap left
// over from other benchmarks to collect in the middle of a measurement).
import { Worker } from 'node:worker_threads'
import { runProgram, shutdownSandbox, warmUp, type ProgramOutcome } from '../src/sandbox'
import { interleave, median, now, percentile, report } from './measure'
import { LIMITS } from './sandbox-limits'

const tools = { t: async (x: unknown) => x }

async function run(code: string, expect: unknown): Promise<number> {
  const t = now()
  const out = await runProgram(code, { tools, limits: LIMITS })
  const ms = now() - t
  if (!out.ok) {
    const { error } = out as Extract<ProgramOutcome, { ok: false }>
    throw new Error(`${error.name}: ${error.message}`)
  }
  if (JSON.stringify(out.value) !== JSON.stringify(expect)) throw new Error(`unexpected result ${JSON.stringify(out.value).slice(0, 200)}`)
  return ms
}

// The floor under the sandbox's protocol, without QuickJS: the worker posts a call, the host
// answers from a promise, the worker spins on a shared counter for the answer (as pool.ts does).
const FLOOR_WORKER = `
const { parentPort, workerData, receiveMessageOnPort } = require('worker_threads')
const flags = new Int32Array(workerData.flags)
parentPort.on('message', (m) => {
  if (m[0] === 'ping') return parentPort.postMessage(['pong'])
  for (let i = 0; i < m[1]; i++) {
    parentPort.postMessage(['call', i, JSON.stringify(i)])
    for (;;) {
      Atomics.load(flags, 0)
      if (receiveMessageOnPort(parentPort) !== undefined) break
    }
  }
  parentPort.postMessage(['done'])
})`

async function floors(reps: number): Promise<{ roundTrip: number; calls: number }> {
  const shared = new SharedArrayBuffer(8)
  const flags = new Int32Array(shared)
  const w = new Worker(FLOOR_WORKER, { eval: true, workerData: { flags: shared } })
  let waiting: (() => void) | undefined
  w.on('message', (m: unknown[]) => {
    if (m[0] === 'call') {
      tools.t(JSON.parse(m[2] as string)).then((out) => queueMicrotask(() => {
        w.postMessage(['res', m[1], JSON.stringify(out)])
        Atomics.add(flags, 0, 1)
      }))
    } else waiting?.()
  })
  const send = (m: unknown[]) => new Promise<void>((resolve) => { waiting = resolve; w.postMessage(m) })
  const t = await interleave({ roundTrip: () => send(['ping']), calls: () => send(['calls', 1000]) }, reps, 5)
  await w.terminate()
  return { roundTrip: median(t.roundTrip), calls: median(t.calls) }
}

async function main() {
  const full = process.argv[2] === 'full'
  await warmUp()
  for (let i = 0; i < 30; i++) await run('return 1', 1)
  const reps = full ? 500 : 200
  const single: number[] = []
  for (let i = 0; i < reps; i++) single.push(await run('return 1', 1))

  const sum = 1000 * 999 / 2
  const series = `let s = 0\nfor (let i = 0; i < 1000; i++) s += await tools.t(i)\nreturn s`
  const parallel = `const r = await Promise.all(Array.from({ length: 1000 }, (_, i) => tools.t(i)))\nreturn r.every((v, i) => v === i) ? r.reduce((a, b) => a + b, 0) : -1`
  let parallelError: string | undefined
  const t = await interleave({
    empty: () => run('return 1', 1),
    series: () => run(series, sum),
    parallel: () => run(parallel, sum).catch((e) => { parallelError = String(e?.message ?? e) }),
  }, full ? 25 : 15, 3)
  await shutdownSandbox()
  const floor = await floors(full ? 25 : 15)
  report({
    single: median(single), singleP90: percentile(single, 90),
    empty: median(t.empty), series: median(t.series), parallel: median(t.parallel), parallelError,
    bestSeriesOverhead: Math.min(...t.series) - Math.min(...t.empty),
    floorRoundTrip: floor.roundTrip, floorCalls: floor.calls,
  })
}

main().catch((e) => { console.error(e); process.exit(1) })
