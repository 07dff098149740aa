// 16. Inbound media fetched at arrival (SPEC §19): a burst of images against a slow local server,
// through the store's bounded queue, against the same store with no bound, in one child process.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { PREFETCH_CONCURRENCY } from '../src/resources/schemes/asset-prefetch'
import { child, median, type Mode, type Row } from './measure'

const COUNT = 200
const DELAY_MS = 50
const KB = 20

interface Round { registered: number; stored: number; peak: number; heapPeakMB: number; retainedMB: number }
type Way = 'bounded' | 'unbounded' | 'lazy'

export async function prefetch(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'prefetch')
  await mkdir(dir, { recursive: true })
  const reps = mode.full ? 5 : 3
  const args = [dir, String(COUNT), String(reps), String(DELAY_MS), String(KB)]
  const { rounds: r, memory } = await child<{ rounds: Record<Way, Round[]>; memory: Record<'bounded' | 'unbounded', Round> }>('child-prefetch.ts', args, ['--expose-gc'])
  const m = (way: Way, k: keyof Round) => median(r[way].map(x => x[k]))
  const peak = Math.max(...r.bounded.map(x => x.peak))
  const floor = Math.ceil(COUNT / PREFETCH_CONCURRENCY) * DELAY_MS
  const burst = `${COUNT} images, ${DELAY_MS} ms and ${KB} KB each`
  const unbounded = 'no bound'
  return [
    {
      benchmark: `16 inbound media fetched at arrival: peak concurrent fetches, server-side (${burst})`,
      figure: peak, unit: '', baseline: Math.max(...r.unbounded.map(x => x.peak)), baselineLabel: unbounded,
      target: `≤ ${PREFETCH_CONCURRENCY} (the limit)`, pass: peak <= PREFETCH_CONCURRENCY,
      note: `the most over ${reps} rounds; each round's: ${r.bounded.map(x => x.peak).join(', ')}`,
    },
    {
      benchmark: '16 inbound media fetched at arrival: time until all stored',
      figure: m('bounded', 'stored'), unit: 'ms', baseline: m('unbounded', 'stored'), baselineLabel: unbounded,
      ratio: m('bounded', 'stored') / m('unbounded', 'stored'),
      note: `the floor with ${PREFETCH_CONCURRENCY} at once is ${COUNT}/${PREFETCH_CONCURRENCY} × ${DELAY_MS} ms = ${floor} ms; `
        + `measured ${(m('bounded', 'stored') / floor).toFixed(2)}× the floor`,
    },
    {
      benchmark: '16 inbound media fetched at arrival: heap growth during the burst (live, peak)',
      figure: memory.bounded.heapPeakMB, unit: 'MB', baseline: memory.unbounded.heapPeakMB, baselineLabel: unbounded,
      ratio: memory.bounded.heapPeakMB / memory.unbounded.heapPeakMB,
      note: 'heapUsed + arrayBuffers sampled after a gc() every 10 ms while registering and fetching (a round of its own), minus the same before; '
        + `kept after the burst: ${memory.bounded.retainedMB.toFixed(2)} MB (no bound: ${memory.unbounded.retainedMB.toFixed(2)} MB); `
        + `peak with garbage in the timed rounds: ${m('bounded', 'heapPeakMB').toFixed(1)} MB (no bound: ${m('unbounded', 'heapPeakMB').toFixed(1)} MB)`,
    },
    {
      benchmark: `16 inbound media fetched at arrival: registering the ${COUNT} (the ingest path)`,
      figure: m('bounded', 'registered'), unit: 'ms', baseline: m('lazy', 'registered'), baselineLabel: 'registration without fetch',
      ratio: m('bounded', 'registered') / m('lazy', 'registered'),
      note: `one after another while the fetches run; unbounded: ${m('unbounded', 'registered').toFixed(0)} ms`,
    },
  ]
}
