// 29. A month of one daily task ('0 9 * * *', Europe/Berlin, March 2027: summer time begins on the
// 28th) through the real Schedules and file store, on a virtual clock that moves in uneven steps of
// 1–60 minutes (a timer fires on time) and now and then 6 hours at once (a host asleep); on the 10th
// the runtime is down from 08:50 to 10:15; on the 15th, 30 s after the firing, the wall clock goes
// back an hour (09:00 comes again); on the 22nd at 08:30 it jumps 2 hours ahead.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { dayOf, instantOf, wallOf } from '../src/util/day'
import type { Mode, Row } from './measure'
import { schedulesIn, startingTurns, ZONE } from './schedules-data'
import { seededRandom } from './seeded-random'
import { VirtualClock } from './virtual-clock'

const MIN = 60_000
const HOUR = 60 * MIN
const at = (day: number, hour: number, minute = 0) => instantOf(2027, 3, day, hour * 60 + minute, ZONE)

const turn = () => new Promise(resolve => setImmediate(resolve))

export async function dailyMonth(mode: Mode): Promise<Row[]> {
  const home = join(mode.tmp, 'schedules-month')
  await mkdir(home, { recursive: true })
  const clock = new VirtualClock(instantOf(2027, 2, 28, 12 * 60, ZONE))
  const firings: { at: number; note: string }[] = []
  const request = startingTurns((_, req) => { firings.push({ at: clock.now(), note: req.note ?? '' }) })
  let schedules = schedulesIn(home, clock, request)
  const settled = async () => { await schedules.written(); await turn() }
  await schedules.start()
  const added = await schedules.add({
    conversation: 'onebot:group:1', channel: 'group:1', who: { platform: 'onebot', id: '10001', name: 'Ann' }, note: 'post the plan', cron: '0 9 * * *',
  })
  if (!('id' in added)) throw new Error(`the task was refused: ${added.message}`)

  const events: [number, () => Promise<void>][] = [
    [at(10, 8, 50), async () => {
      await schedules.stop()
      await clock.advance(at(10, 10, 15) - clock.now(), HOUR)
      schedules = schedulesIn(home, clock, request)
      await schedules.start()
      await settled()
    }],
    [at(15, 9) + 30_000, async () => clock.shiftWall(-HOUR)],
    [at(22, 8, 30), async () => clock.shiftWall(2 * HOUR)],
  ]
  const end = instantOf(2027, 4, 1, 0, ZONE)
  const rnd = seededRandom(29)
  while (clock.now() < end) {
    const asleep = rnd() < 0.03
    let step = asleep ? 6 * HOUR : Math.min((1 + Math.floor(rnd() * 60)) * MIN, Math.max(1, clock.untilNext ?? Infinity))
    const next = events[0]
    if (next) step = Math.min(step, next[0] - clock.now())
    step = Math.min(step, end - clock.now())
    await clock.advance(step, step)
    // the store's write is real disk work: simulated time waits for it, as a firing takes milliseconds
    await settled()
    if (next && clock.now() >= next[0]) {
      events.shift()
      await next[1]()
    }
  }
  await schedules.written()
  await schedules.stop()

  const days = new Date(Date.UTC(2027, 3, 0)).getUTCDate()
  const distinct = new Set(firings.map(f => dayOf(f.at, ZONE)))
  const inMarch = [...distinct].filter(d => d.startsWith('2027-03-')).length
  const onTime = firings.filter(f => { const w = wallOf(f.at, ZONE); return w.hour === 9 && w.minute === 0 }).length
  const late = firings.filter(f => /late\]$/.test(f.note)).length
  const dst = firings.find(f => dayOf(f.at, ZONE) === '2027-03-28')
  return [{
    benchmark: '29 schedules: firings of a daily task (0 9 * * *) over March 2027 in Europe/Berlin, across DST, a clock that jumps',
    figure: firings.length, unit: '', baseline: days, baselineLabel: 'days of the month', ratio: firings.length / days,
    target: '= the days, one a day', pass: firings.length === days && distinct.size === days && inMarch === days && onTime + late === days,
    note: `${distinct.size} distinct local days, ${inMarch} in March; ${onTime} at 09:00 local, ${late} late (the host asleep, down on`
      + ` the 10th, the wall clock 2 h ahead on the 22nd) and saying so; none again after the wall clock went back an hour on the 15th;`
      + ` the 28th fired at ${dst ? new Date(dst.at).toISOString().slice(11, 16) : '—'} UTC`,
  }]
}
