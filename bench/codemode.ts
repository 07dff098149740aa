// 5. Codemode: start-up, per-program overhead, and host calls in series and all at once.
import { Worker } from 'node:worker_threads'
import { runProgram, shutdownSandbox, warmUp } from '../src/sandbox'
import { child, interleave, median, now, percentile, type Mode, type Row } from './measure'
import { LIMITS } from './sandbox-limits'

const tools = { t: async (x: unknown) => x }

async function run(code: string, expect: unknown): Promise<number> {
  const t = now()
  const out = await runProgram(code, { tools, limits: LIMITS })
  const ms = now() - t
  if (!out.ok) throw new Error(`${out.error.name}: ${out.error.message}`)
  if (JSON.stringify(out.value) !== JSON.stringify(expect)) throw new Error(`unexpected result ${JSON.stringify(out.value).slice(0, 200)}`)
  return ms
}

/** The floor under any sandbox on a thread: one message to a worker thread and back. */
async function workerRoundTrip(reps: number): Promise<number> {
  const w = new Worker(`require('worker_threads').parentPort.on('message', m => require('worker_threads').parentPort.postMessage(m))`, { eval: true })
  const once = () => new Promise<void>(resolve => { w.once('message', () => resolve()); w.postMessage(['run', 1, 'return 1']) })
  for (let i = 0; i < 20; i++) await once()
  const xs: number[] = []
  for (let i = 0; i < reps; i++) xs.push(-now() + (await once(), now()))
  await w.terminate()
  return median(xs)
}

export async function codemode(mode: Mode): Promise<Row[]> {
  // Start-up in fresh processes: nothing compiled, no worker yet.
  const cold = await child('child-codemode.ts', ['cold'])
  const warm = await child('child-codemode.ts', ['warm'])

  await warmUp()
  for (let i = 0; i < 30; i++) await run('return 1', 1)
  const reps = mode.full ? 500 : 200
  const single: number[] = []
  for (let i = 0; i < reps; i++) single.push(await run('return 1', 1))
  const floor = await workerRoundTrip(200)

  const sum = 1000 * 999 / 2
  const series = `let s = 0\nfor (let i = 0; i < 1000; i++) s += await tools.t(i)\nreturn s`
  const parallel = `const r = await Promise.all(Array.from({ length: 1000 }, (_, i) => tools.t(i)))\nreturn r.every((v, i) => v === i) ? r.reduce((a, b) => a + b, 0) : -1`
  let parallelOk = true
  const t = await interleave({
    empty: () => run('return 1', 1),
    series: () => run(series, sum),
    parallel: () => run(parallel, sum).catch((e) => { parallelOk = false; throw e }),
  }, mode.full ? 25 : 15, 3)
  await shutdownSandbox()

  const overhead = median(t.series) - median(t.empty)
  return [
    {
      benchmark: '5 codemode: first program after process start, no warmUp', figure: cold.firstMs, unit: 'ms',
      note: `import of the sandbox ${cold.importMs.toFixed(0)} ms; first program done ${cold.sinceStartMs.toFixed(0)} ms after process start`,
    },
    {
      benchmark: '5 codemode: first program after warmUp()', figure: warm.firstMs, unit: 'ms', baseline: warm.warmUpMs, baselineLabel: 'warmUp() itself',
    },
    {
      benchmark: `5 codemode: per program, 'return 1' warm (median of ${reps})`, figure: median(single), unit: 'ms',
      baseline: floor, baselineLabel: 'worker thread round trip', target: '≤ 5 ms', pass: median(single) <= 5,
      note: `p90 ${percentile(single, 90).toFixed(2)} ms`,
    },
    {
      benchmark: '5 codemode: 1,000 sequential host calls, overhead', figure: overhead, unit: 'ms',
      baseline: median(t.empty), baselineLabel: "'return 1' subtracted", target: '≤ 50 ms', pass: overhead <= 50,
      note: `program wall ${median(t.series).toFixed(1)} ms, ${(overhead / 1000 * 1000).toFixed(1)} µs a call`,
    },
    {
      benchmark: '5 codemode: 1,000 concurrent host calls (Promise.all)', figure: median(t.parallel), unit: 'ms',
      baseline: median(t.empty), baselineLabel: "'return 1'", target: 'completes, correct', pass: parallelOk && t.parallel.length > 0,
    },
  ]
}
