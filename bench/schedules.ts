// 27, 28. Schedules (SPEC §25): 10,000 open tasks in 1,000 conversations of one runtime (heap per
// task, timers, finding the next due task; bench/child-schedules.ts), and a restart on their
// schedules.json (load time, nothing lost). 29 is bench/schedules-month.ts.
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { child, median, now, percentile, type Mode, type Row } from './measure'
import { makeTasks, schedulesIn, startingTurns, writeTasks } from './schedules-data'
import { VirtualClock } from './virtual-clock'

const COUNT = 10_000
const CONVERSATIONS = 1_000
/** 2026-12-01 08:00 UTC: every task is due within the 30 days after */
const START = Date.UTC(2026, 11, 1, 8)
const KB = 1024

interface Heap {
  zero: number; withTasks: number; parsed: number; parsedCount: number; loaded: number
  timersAtLoad: number; timersMin: number; timersMax: number
  callsPerTick: number; lookups: number[]; scans: number[]; firingMs: number[]; rewriteMs: number[]; fired: number; fileBytes: number
  burst: { ms: number; writes: number; fired: number; left: number }
}

async function tenThousand(home: string, empty: string, burst: string, firings: number): Promise<Row[]> {
  const h = await child<Heap>('child-schedules.ts', [home, empty, burst, String(firings), String(START)], ['--expose-gc'])
  const perTask = (h.withTasks - h.zero) / COUNT
  const raw = h.parsed / h.parsedCount
  const lookup = median(h.lookups)
  const scan = median(h.scans)
  const us = (xs: number[]) => `p90 ${percentile(xs, 90).toFixed(1)} µs`
  return [
    {
      benchmark: `27 schedules: heap per open task (${COUNT.toLocaleString('en')} in ${CONVERSATIONS.toLocaleString('en')} conversations)`,
      figure: perTask, unit: 'B', baseline: raw, baselineLabel: 'the tasks alone, JSON.parse', ratio: perTask / raw,
      target: '≤ 2 KB and ≤ 2×', pass: perTask <= 2 * KB && perTask <= 2 * raw && h.loaded === COUNT,
      note: `heapUsed + arrayBuffers after gc(), minus the same runtime with 0 tasks (${(h.zero / KB).toFixed(1)} KB); ${h.loaded} loaded`,
    },
    {
      benchmark: '27 schedules: timers armed by the runtime, after loading and after each firing',
      figure: h.timersMax, unit: '', target: '= 1', pass: h.timersAtLoad === 1 && h.timersMin === 1 && h.timersMax === 1,
      note: `live timers of the runtime's clock: ${h.timersAtLoad} after loading, ${h.timersMin}–${h.timersMax} after ${h.fired} firings`,
    },
    {
      benchmark: '27 schedules: finding the next due task, a tick after a firing',
      figure: lookup, unit: 'µs', baseline: scan, baselineLabel: `a scan of the ${COUNT.toLocaleString('en')}`, ratio: lookup / scan,
      target: '≤ the scan', pass: lookup <= scan,
      note: `the tick's soonest() and heap pops together (${h.callsPerTick.toFixed(1)} calls a tick), ${h.lookups.length} firings in due order`
        + ` (${us(h.lookups)}); the scan ${us(h.scans)}; one firing a tick, as a runtime's tasks fire, so the code runs cold`,
    },
    {
      benchmark: '27 schedules: a firing at 10,000 tasks, until stored',
      figure: median(h.firingMs), unit: 'ms', baseline: median(h.rewriteMs), baselineLabel: 'JSON.stringify + atomicWrite of the tasks',
      ratio: median(h.firingMs) / median(h.rewriteMs),
      note: `each firing writes the whole schedules.json (${(h.fileBytes / KB / KB).toFixed(2)} MB) before its turn;`
        + ` p90 ${percentile(h.firingMs, 90).toFixed(1)} ms`,
    },
    {
      benchmark: `27 schedules: ${COUNT.toLocaleString('en')} tasks due in the same minute, one tick until all stored`,
      figure: h.burst.ms, unit: 'ms', target: 'all fire, 1–2 file writes', pass: h.burst.fired === COUNT && h.burst.writes <= 2,
      note: `${h.burst.fired} turns asked for, ${h.burst.left} repeating tasks moved on, ${h.burst.writes} write(s) of schedules.json`
        + ' (the firings of one tick share a write)',
    },
  ]
}

async function restart(home: string, path: string, ids: Set<string>, reps: number): Promise<Row[]> {
  const load: number[] = []
  const parse: number[] = []
  let smallest = Infinity
  let missing = 0
  const subjects = {
    load: async () => {
      const schedules = schedulesIn(home, new VirtualClock(START), startingTurns(() => {}))
      const t = now()
      await schedules.start()
      load.push(now() - t)
      smallest = Math.min(smallest, schedules.size)
      missing = Math.max(missing, [...ids].filter(id => !schedules.get(id)).length)
      await schedules.stop()
    },
    parse: async () => {
      const t = now()
      JSON.parse(await readFile(path, 'utf8'))
      parse.push(now() - t)
    },
  }
  for (let round = 0; round <= reps; round++) {
    const order = round % 2 ? [subjects.parse, subjects.load] : [subjects.load, subjects.parse]
    for (const run of order) await run()
    if (round === 0) { load.length = 0; parse.length = 0 }   // the warm-up round
  }
  const l = median(load)
  const p = median(parse)
  return [
    {
      benchmark: `28 schedules: a restart with ${COUNT.toLocaleString('en')} tasks, new Schedules + start()`,
      figure: l, unit: 'ms', baseline: p, baselineLabel: 'readFile + JSON.parse of it', ratio: l / p,
      target: '≤ 3×', pass: l <= 3 * p,
      note: `median of ${load.length} interleaved; p90 ${percentile(load, 90).toFixed(1)} ms against ${percentile(parse, 90).toFixed(1)} ms`,
    },
    {
      benchmark: '28 schedules: tasks after the restart',
      figure: smallest, unit: '', baseline: ids.size, baselineLabel: 'written', target: 'all, none lost', pass: smallest === ids.size && missing === 0,
      note: `the fewest over ${load.length + 1} loads; ${missing} written ids not found`,
    },
  ]
}

/** a runtime's home with the 10,000 tasks written to its schedules.json */
async function homeWithTasks(dir: string) {
  const home = join(dir, 'home')
  await mkdir(home, { recursive: true })
  const tasks = makeTasks(COUNT, CONVERSATIONS, START)
  return { home, path: await writeTasks(home, tasks), ids: new Set(tasks.map(t => t.id)) }
}

export async function schedulesHeld(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'schedules-held')
  const { home } = await homeWithTasks(dir)
  const [empty, burst] = [join(dir, 'empty'), join(dir, 'burst')]
  await mkdir(empty, { recursive: true })
  await mkdir(burst, { recursive: true })
  return tenThousand(home, empty, burst, mode.full ? 200 : 40)
}

export async function schedulesRestart(mode: Mode): Promise<Row[]> {
  const { home, path, ids } = await homeWithTasks(join(mode.tmp, 'schedules-restart'))
  return restart(home, path, ids, mode.full ? 21 : 7)
}
