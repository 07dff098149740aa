// 5. Codemode: start-up, per-program overhead, and host calls in series and all at once.
// Every figure comes from a fresh process, so no other benchmark's heap is collected meanwhile;
// the steady-state child runs several times and each figure is the median over those runs.
import { child, median, type Mode, type Row } from './measure'

/** Per-program overhead of a warm `return 1`, against a bare fresh QuickJS instance evaluating `1`. */
export const PROGRAM_RATIO = 1.5
/** Host-call overhead against the same worker protocol without QuickJS. */
export const CALLS_RATIO = 2

type Steady = Record<'single' | 'singleP90' | 'bare' | 'spaced' | 'empty' | 'series' | 'parallel' | 'bestSeriesOverhead' | 'floorRoundTrip' | 'floorCalls' | 'inThread', number> & { parallelError?: string }

export async function codemode(mode: Mode): Promise<Row[]> {
  const cold = await child('child-codemode.ts', ['cold'])
  const warm = await child('child-codemode.ts', ['warm'])
  const runs: Steady[] = []
  for (let i = 0; i < (mode.full ? 5 : 3); i++) runs.push(await child('child-codemode-steady.ts', [mode.full ? 'full' : 'quick']))
  const m = (k: keyof Steady) => median(runs.map((r) => r[k] as number))
  const overhead = m('series') - m('empty')
  // Each run's subject and baseline were measured side by side: the ratio is the median of the runs' own ratios.
  const callsRatio = median(runs.map((r) => (r.series - r.empty) / r.floorCalls))
  const programRatio = median(runs.map((r) => r.single / r.bare))
  const spread = (f: (r: Steady) => number) => runs.map((r) => f(r).toFixed(2)).join(', ')
  const parallelError = runs.find((r) => r.parallelError)?.parallelError
  return [
    {
      benchmark: '5 codemode: first program after process start, no warmUp', figure: cold.firstMs, unit: 'ms',
      note: `import of the sandbox ${cold.importMs.toFixed(0)} ms; first program done ${cold.sinceStartMs.toFixed(0)} ms after process start`,
    },
    {
      benchmark: '5 codemode: first program after warmUp()', figure: warm.firstMs, unit: 'ms', baseline: warm.warmUpMs, baselineLabel: 'warmUp() itself',
    },
    {
      benchmark: "5 codemode: per program, 'return 1' warm", figure: m('single'), unit: 'ms',
      baseline: m('bare'), baselineLabel: "fresh QuickJS instance + eval '1'", ratio: programRatio, target: `≤ ${PROGRAM_RATIO}×`, pass: programRatio <= PROGRAM_RATIO,
      note: `p90 ${m('singleP90').toFixed(2)} ms; spaced 5 ms apart (the next instance ready) ${m('spaced').toFixed(2)} ms; worker thread round trip ${(m('floorRoundTrip') * 1000).toFixed(0)} µs; ratio per run ${spread((r) => r.single / r.bare)}`,
    },
    {
      benchmark: '5 codemode: 1,000 sequential host calls, overhead', figure: overhead, unit: 'ms',
      baseline: m('floorCalls'), baselineLabel: 'same protocol, no QuickJS', ratio: callsRatio, target: `≤ ${CALLS_RATIO}×`, pass: callsRatio <= CALLS_RATIO,
      note: `program ${m('series').toFixed(1)} ms − 'return 1' ${m('empty').toFixed(1)} ms = ${overhead.toFixed(1)} µs a call; QuickJS alone ${m('inThread').toFixed(1)} µs (the same calls in one thread), the protocol alone ${m('floorCalls').toFixed(1)} µs; ratio per run ${spread((r) => (r.series - r.empty) / r.floorCalls)}; fastest runs ${m('bestSeriesOverhead').toFixed(1)} ms`,
    },
    {
      benchmark: '5 codemode: 1,000 concurrent host calls (Promise.all)', figure: m('parallel'), unit: 'ms',
      baseline: m('empty'), baselineLabel: "'return 1'", target: 'completes, correct', pass: !parallelError && !Number.isNaN(m('parallel')),
      ...(parallelError ? { note: parallelError } : {}),
    },
  ]
}
