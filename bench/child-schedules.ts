// Child of schedules.ts (bench 27): the real Schedules on a schedules.json of 10,000 open tasks, on
// a virtual clock. The heap it keeps (after gc(), against the same runtime with 0 tasks, and the
// tasks as JSON.parse gives them), the timers it arms, and then `firings` firings in due order:
// the time the tick spends finding what is due and the soonest after it (Schedules' own soonest()
// and its heap's pop, timed in place), against a plain scan of the same tasks for the soonest, and
// each firing's store write against a bare rewrite of the tasks; last, 10,000 tasks due at once.
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { SCHEDULES_FILE } from '../src/schedules/file-store'
import type { Task } from '../src/schedules/task'
import { atomicWrite } from '../src/util/atomic-write'
import { KeyedFile } from '../src/util/keyed-file'
import { now, report } from './measure'
import { makeTasks, schedulesIn, startingTurns, writeTasks } from './schedules-data'
import { VirtualClock } from './virtual-clock'

const [home, emptyHome, burstHome, firingsArg, startArg] = process.argv.slice(2)
const FIRINGS = Number(firingsArg)
const gc = (globalThis as any).gc as () => void
const used = () => { gc(); gc(); const u = process.memoryUsage(); return u.heapUsed + u.arrayBuffers }
const turn = () => new Promise(resolve => setImmediate(resolve))

/** Wraps `obj[name]` so its outermost calls add their time to `into.ms`. */
function timed(obj: any, name: string, into: { ms: number; depth: number; calls: number }): void {
  const f = obj[name].bind(obj)
  obj[name] = (...args: unknown[]) => {
    const outer = into.depth++ === 0
    if (outer) into.calls++
    const t = now()
    try {
      return f(...args)
    } finally {
      if (outer) into.ms += now() - t
      into.depth--
    }
  }
}

/** The soonest of `tasks` by looking at each: what a scheduler without an index does. */
function scan(tasks: Map<string, Task>): string | undefined {
  let min = Infinity
  let id: string | undefined
  for (const t of tasks.values()) if (t.next < min) { min = t.next; id = t.id }
  return id
}

async function main() {
  const start = Number(startArg)
  let fired = 0
  const request = startingTurns(() => { fired++ })

  // a first runtime's lazy set-up (compiled code, caches) is not counted to either
  const warm = schedulesIn(emptyHome, new VirtualClock(start), request)
  await warm.start()
  await warm.stop()

  // the same runtime with 0 tasks
  let before = used()
  const emptyClock = new VirtualClock(start)
  const empty = schedulesIn(emptyHome, emptyClock, request)
  await empty.start()
  const zero = used() - before

  before = used()
  const clock = new VirtualClock(start)
  const schedules = schedulesIn(home, clock, request)
  await schedules.start()
  const withTasks = used() - before
  const loaded = schedules.size
  const timersAtLoad = clock.live

  // the tasks alone, as JSON.parse gives them
  const path = join(home, SCHEDULES_FILE)
  const text = readFileSync(path, 'utf8')
  before = used()
  const raw = JSON.parse(text)
  const parsed = used() - before
  const parsedCount = Object.keys(raw.tasks).length

  // the runtime's index (schedules/task-index.ts): its map of tasks, its heap
  const index = (schedules as any).tasks
  const tasks = index.tasks as Map<string, Task>
  const spent = { ms: 0, depth: 0, calls: 0 }
  timed(index, 'soonest', spent)
  timed(index.heap, 'pop', spent)
  const lookups: number[] = []
  const scans: number[] = []
  const firingMs: number[] = []
  const rewriteMs: number[] = []
  const rewrite = async () => {
    const t = now()
    await atomicWrite(join(emptyHome, 'rewrite.json'), JSON.stringify({ tasks: Object.fromEntries(tasks) }, null, 1))
    rewriteMs.push(now() - t)
  }
  let timersMin = Infinity
  let timersMax = 0
  const timeScan = () => { const t = now(); scan(tasks); scans.push((now() - t) * 1000) }
  for (let k = 0; k < FIRINGS; k++) {
    const due = schedules.all()[0].next
    if (k % 2) { timeScan(); await rewrite() }
    const wasFired = fired
    spent.ms = 0
    const t = now()
    await clock.advance(due - clock.now(), due - clock.now())
    await schedules.written()
    await turn()
    firingMs.push(now() - t)
    lookups.push(spent.ms * 1000)
    if (fired === wasFired) throw new Error(`nothing fired at ${new Date(due).toISOString()}`)
    if (!(k % 2)) { timeScan(); await rewrite() }
    timersMin = Math.min(timersMin, clock.live)
    timersMax = Math.max(timersMax, clock.live)
  }
  const fileBytes = statSync(path).size
  await schedules.stop()
  await empty.stop()
  const callsPerTick = spent.calls / FIRINGS
  const burst = await allAtOnce(start, loaded)
  report({
    zero, withTasks, parsed, parsedCount, loaded, timersAtLoad, timersMin, timersMax,
    callsPerTick, lookups, scans, firingMs, rewriteMs, fired, fileBytes, burst,
  })
}

/** The same number of tasks all due in the same minute: one tick fires them; the file writes it takes. */
async function allAtOnce(start: number, count: number) {
  const due = start + 60_000
  await writeTasks(burstHome, makeTasks(count, 1000, start, 28).map(t => ({ ...t, next: due })))
  const file = KeyedFile.prototype as any
  const write = file.write
  let writes = 0
  file.write = function (this: unknown) { writes++; return write.call(this) }
  let fired = 0
  const clock = new VirtualClock(start)
  const schedules = schedulesIn(burstHome, clock, startingTurns(() => { fired++ }))
  await schedules.start()
  const t = now()
  await clock.advance(60_000, 60_000)
  await schedules.written()
  const ms = now() - t
  const left = schedules.size
  await schedules.stop()
  file.write = write
  return { ms, writes, fired, left }
}

main().catch((e) => { console.error(e); process.exit(1) })
