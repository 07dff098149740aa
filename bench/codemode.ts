// 5. Codemode: start-up, per-program overhead, and host calls in series and all at once.
// Every figure comes from a fresh process, so no other benchmark's heap is collected meanwhile.
import { child, type Mode, type Row } from './measure'

export async function codemode(mode: Mode): Promise<Row[]> {
  const cold = await child('child-codemode.ts', ['cold'])
  const warm = await child('child-codemode.ts', ['warm'])
  const s = await child('child-codemode-steady.ts', [mode.full ? 'full' : 'quick'])
  const overhead = s.series - s.empty
  return [
    {
      benchmark: '5 codemode: first program after process start, no warmUp', figure: cold.firstMs, unit: 'ms',
      note: `import of the sandbox ${cold.importMs.toFixed(0)} ms; first program done ${cold.sinceStartMs.toFixed(0)} ms after process start`,
    },
    {
      benchmark: '5 codemode: first program after warmUp()', figure: warm.firstMs, unit: 'ms', baseline: warm.warmUpMs, baselineLabel: 'warmUp() itself',
    },
    {
      benchmark: "5 codemode: per program, 'return 1' warm", figure: s.single, unit: 'ms',
      baseline: s.floorRoundTrip, baselineLabel: 'worker thread round trip', target: '≤ 5 ms', pass: s.single <= 5,
      note: `p90 ${s.singleP90.toFixed(2)} ms`,
    },
    {
      benchmark: '5 codemode: 1,000 sequential host calls, overhead', figure: overhead, unit: 'ms',
      baseline: s.floorCalls, baselineLabel: 'same protocol, no QuickJS', ratio: overhead / s.floorCalls, target: '≤ 50 ms', pass: overhead <= 50,
      note: `program ${s.series.toFixed(1)} ms − 'return 1' ${s.empty.toFixed(1)} ms = ${overhead.toFixed(1)} µs a call; fastest runs ${s.bestSeriesOverhead.toFixed(1)} ms`,
    },
    {
      benchmark: '5 codemode: 1,000 concurrent host calls (Promise.all)', figure: s.parallel, unit: 'ms',
      baseline: s.empty, baselineLabel: "'return 1'", target: 'completes, correct', pass: !s.parallelError && !Number.isNaN(s.parallel),
      ...(s.parallelError ? { note: s.parallelError } : {}),
    },
  ]
}
