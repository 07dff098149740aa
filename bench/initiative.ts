// 22. Initiative (SPEC §21): a simulated month of a group that goes quiet, driven through the
// initiative part on a virtual clock (Europe/Berlin, across the change to summer time on 29
// March), counting idle wakes per local day and those outside active hours; and the heap of
// 10,000 conversations with an idle wake scheduled each (bench/child-initiative.ts).
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { DEFAULT_INITIATIVE } from '../src/initiative/config'
import type { Entry } from '../src/history/entries'
import { inside } from '../src/initiative/active-hours'
import { dayOf } from '../src/util/day'
import { IdleWakes } from '../src/initiative/idle-wakes'
import { rulesOf } from '../src/initiative/schedule'
import { child, type Mode, type Row } from './measure'
import { seededRandom } from './seeded-random'
import { VirtualClock } from './virtual-clock'

const ZONE = 'Europe/Berlin'
const DAY = 86_400_000
const quiet = { debug() {}, info() {}, warn() {}, error() {} }

const random = seededRandom

async function month(dir: string): Promise<{ wakes: number[]; perDayMax: number; outside: number; days: number }> {
  const start = Date.UTC(2026, 2, 1, 8, 0, 0)
  const clock = new VirtualClock(start)
  const rnd = random(7)
  const config = { ...DEFAULT_INITIATIVE, enabled: true, timezone: ZONE }
  const rules = rulesOf(config)
  const wakes: number[] = []
  const part = new IdleWakes({
    config, home: dir, bot: 'onebot:1', clock, logger: quiet, random: rnd,
    proactive: () => true, muted: () => false,
    // the mind stays silent at every idle wake (the harshest case for backoff and the caps)
    request: async () => { wakes.push(clock.now()) },
  })
  await part.start()
  let n = 0
  const say = () => {
    const at = clock.now()
    const e: Entry = { type: 'fact', at, fact: { id: `m${++n}`, at, bot: 'onebot:1', channel: 'group:1', direct: false, user: { id: 'u1', name: 'Ann' }, content: 'hi' } }
    part.appended('group:1', [e])
  }
  // ten busy days (a few messages at random hours), then quiet with one message a week
  for (let d = 0; d < 31; d++) {
    const talk = d < 10 ? 1 + Math.floor(rnd() * 4) : d % 7 === 0 ? 1 : 0
    const times = Array.from({ length: talk }, () => Math.floor(rnd() * 14 * 3_600_000)).sort((a, b) => a - b)
    let at = 0
    for (const t of times) {
      await clock.advance(t - at, 60_000)
      at = t
      say()
    }
    await clock.advance(DAY - at, 60_000)
  }
  await part.stop()
  const perDay = new Map<string, number>()
  for (const w of wakes) perDay.set(dayOf(w, ZONE), (perDay.get(dayOf(w, ZONE)) ?? 0) + 1)
  return { wakes, perDayMax: Math.max(0, ...perDay.values()), outside: wakes.filter(w => !inside(w, rules.hours, ZONE)).length, days: perDay.size }
}

export async function initiative(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'initiative')
  await mkdir(dir, { recursive: true })
  const m = await month(dir)
  const count = 10_000
  const heap = await child<{ ours: number; naive: number; scheduled: number }>('child-initiative.ts', [dir, String(count)], ['--expose-gc'])
  const perConv = heap.ours / count
  return [
    {
      benchmark: '22 initiative: idle wakes on the busiest day of a month that goes quiet (Europe/Berlin, across DST)',
      figure: m.perDayMax, unit: '', target: `≤ ${DEFAULT_INITIATIVE.perDay} (perDay)`, pass: m.perDayMax <= DEFAULT_INITIATIVE.perDay,
      note: `${m.wakes.length} idle wakes over 31 days, on ${m.days} days; ten busy days, then one message a week; the mind stays silent at each`,
    },
    {
      benchmark: '22 initiative: idle wakes outside active hours (09:00-23:00)',
      figure: m.outside, unit: '', target: '0', pass: m.outside === 0,
    },
    {
      benchmark: `22 initiative: heap per conversation with an idle wake scheduled (${count.toLocaleString('en')} conversations)`,
      figure: perConv, unit: 'B', baseline: heap.naive / count, baselineLabel: 'the same states, a timer each',
      ratio: perConv / (heap.naive / count), target: '≤ 10 KB', pass: perConv <= 10_240,
      note: `${heap.scheduled} of ${count} scheduled; one timer for the runtime (the soonest wake); heapUsed + arrayBuffers after gc()`,
    },
  ]
}
