// Child of initiative.ts: the heap that 10,000 conversations with initiative on hold (one human
// message each, an idle wake scheduled for each) with the part's one timer, against the same
// states each with a timer of its own (the naive scheduler), after a gc() each.
import { mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { DEFAULT_INITIATIVE } from '../src/initiative/config'
import type { Entry } from '../src/history/entries'
import { IdleWakes } from '../src/initiative/idle-wakes'
import { afterHuman, nextIdleAt, rulesOf } from '../src/initiative/schedule'
import { systemClock } from '../src/util/clock'
import { report } from './measure'

const [tmp, countArg] = process.argv.slice(2)
const COUNT = Number(countArg)
const gc = (globalThis as any).gc as () => void
const used = () => { gc(); gc(); const u = process.memoryUsage(); return u.heapUsed + u.arrayBuffers }
const quiet = { debug() {}, info() {}, warn() {}, error() {} }
const config = { ...DEFAULT_INITIATIVE, enabled: true, activeHours: '00:00-24:00', timezone: 'UTC' }
const fact = (i: number, at: number): Entry => ({
  type: 'fact', at, fact: { id: `m${i}`, at, bot: 'onebot:1', channel: `group:${i}`, direct: false, user: { id: `u${i}`, name: `Person ${i}` }, content: 'hi' },
})

async function main() {
  const home = await mkdtemp(join(tmp, 'initiative-'))
  const now = Date.now()
  const before = used()
  const part = new IdleWakes({
    config, home, bot: 'onebot:1', clock: systemClock, logger: quiet, random: Math.random,
    proactive: () => true, muted: () => false, request: async () => {},
  })
  await part.start()
  for (let i = 0; i < COUNT; i++) part.appended(`group:${i}`, [fact(i, now)])
  const scheduled = [...Array(COUNT).keys()].filter(i => 'at' in part.next(`group:${i}`)).length
  const ours = used() - before
  await part.stop()

  // the naive scheduler: the same states, a timer each
  const rules = rulesOf(config)
  const base = used()
  const states = new Map<string, unknown>()
  const timers: ReturnType<typeof setTimeout>[] = []
  for (let i = 0; i < COUNT; i++) {
    const s = afterHuman(undefined, `group:${i}`, now, `Person ${i}`)
    const next = nextIdleAt(s, rules, now, Math.random)
    if ('at' in next) s.due = next.at
    states.set(`group:${i}`, s)
    timers.push(setTimeout(() => {}, Math.max(1, (s.due ?? now) - now)).unref())
  }
  const naive = used() - base
  for (const t of timers) clearTimeout(t)
  await rm(home, { recursive: true, force: true })
  report({ ours, naive, scheduled, count: COUNT, states: states.size })
}

main().catch((e) => { console.error(e); process.exit(1) })
