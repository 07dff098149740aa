// 17. History after downtime (SPEC §19): a runtime starts with 100 stored conversations, each with 60
// messages said since its last stored one on a OneBot stand-in that pages as NapCat does (at most 50
// a call, by message_seq, inclusive, oldest first); the core's HistoryPull pulls the newest 50 of
// each through the real OneBot source, renders them and stores them. Against storing the same 5,000
// facts live through runtime.receive, both from the same stored start, interleaved.
import { cp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { HistoryPull } from '../src/history-pull/pull'
import { historySource } from '../src/koishi/history-pull/sources'
import type { Fact } from '../src/history/entries'
import type { Runtime } from '../src/runtime/runtime'
import { KeyedQueue } from '../src/util/keyed-queue'
import type { Logger } from '../src/util/logger'
import { historyReconnect } from './history-reconnect'
import { median, now, type Mode, type Row } from './measure'
import { benchRuntime, BOT, scriptedModel } from './runtime-setup'

const CONVERSATIONS = 100
const PER_CONVERSATION = 50
/** messages said since the last stored one, per conversation (more than pullMax) */
const SAID = 60
const SELF = 10001

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} }
const idle = () => scriptedModel(() => [])

interface StandIn {
  bot: any
  calls: number
  peak: number
}

/** A OneBot bot whose raw requests answer get_group_msg_history from memory, after `latencyMs` (0: the next macrotask). */
function oneBotStandIn(startSec: number, latencyMs: number): StandIn {
  const history = new Map<number, any[]>()
  for (let g = 0; g < CONVERSATIONS; g++) {
    const list: any[] = [{ message_id: g * 1000, message_seq: g * 1000, time: startSec, user_id: 2001, sender: { user_id: 2001, nickname: 'Old' }, message: [] }]
    for (let i = 1; i <= SAID; i++) {
      const id = g * 1000 + i
      const user = 2001 + (i % 7)
      list.push({
        message_id: id, message_seq: id, time: startSec + i, user_id: user, group_id: g,
        sender: { user_id: user, nickname: `user${user}`, card: '' }, message: [{ type: 'text', data: { text: `message ${i} in group ${g}` } }],
      })
    }
    history.set(g, list)
  }
  let active = 0
  const s: StandIn = { calls: 0, peak: 0, bot: undefined }
  s.bot = {
    platform: 'onebot', selfId: String(SELF),
    internal: {
      async _request(action: string, p: any) {
        s.calls++
        s.peak = Math.max(s.peak, ++active)
        await new Promise(r => latencyMs ? setTimeout(r, latencyMs) : setImmediate(r))
        active--
        const list = history.get(Number(p.group_id)) ?? []
        const count = Math.min(50, Number(p.count))
        const at = p.message_seq === undefined ? list.length - 1 : list.findIndex(m => m.message_seq === p.message_seq)
        return { status: 'ok', retcode: 0, data: { messages: action === 'get_group_msg_history' && at >= 0 ? list.slice(Math.max(0, at - count + 1), at + 1) : [] } }
      },
    },
  }
  return s
}

const storedFact = (g: number, atMs: number): Fact => ({
  id: String(g * 1000), at: atMs, bot: BOT, channel: `group:${g}`, direct: false, user: { id: '2001', name: 'Old' }, content: 'the last stored message',
})

/** A home with the 100 conversations, each holding its last stored message. */
async function template(dir: string, startSec: number): Promise<void> {
  const runtime = await benchRuntime({ dataDir: dir, model: idle(), profile: { claims: [{ bot: '*', channels: ['group:*'] }] } })
  for (let g = 0; g < CONVERSATIONS; g++) await runtime.receive(storedFact(g, startSec * 1000))
  await runtime.written()
  await runtime.stop()
}

async function started(dir: string): Promise<Runtime> {
  return benchRuntime({ dataDir: dir, model: idle(), profile: { claims: [{ bot: '*', channels: ['group:*'] }] } })
}

/** Starts a runtime on `dir` and pulls every conversation; ms, from before the start until the facts are written. */
async function pullAll(dir: string, standIn: StandIn): Promise<{ ms: number; stored: number; peak: number }> {
  const t = now()
  const runtime = await started(dir)
  const queue = new KeyedQueue()
  let queued = 0
  const pulls = new HistoryPull<Runtime>({
    log: quiet, profiles: () => [runtime.profile], owner: () => runtime.profile, source: () => historySource(standIn.bot),
    kit: r => ({ assets: r.assets, bot: r.bot, selfId: String(SELF) }), running: async () => runtime, active: () => true,
    queue: (_p, _b, conversation, task) => { queued++; return queue.run(conversation, task) },
  })
  pulls.started(runtime)
  while (queued < CONVERSATIONS) await new Promise(r => setImmediate(r))
  await queue.idle()
  await runtime.written()
  const ms = now() - t
  let stored = 0
  for (const c of await runtime.loaded()) stored += c.entries.filter(e => e.type === 'fact' && e.fact.pulled).length
  await runtime.stop()
  return { ms, stored, peak: pulls.peak }
}

/** The same 5,000 facts stored live; ms, from before the start until they are written. */
async function receiveAll(dir: string, startSec: number): Promise<number> {
  const t = now()
  const runtime = await started(dir)
  for (let g = 0; g < CONVERSATIONS; g++) {
    for (let i = SAID - PER_CONVERSATION + 1; i <= SAID; i++) {
      await runtime.receive({
        id: String(g * 1000 + i), at: (startSec + i) * 1000, bot: BOT, channel: `group:${g}`, direct: false,
        user: { id: String(2001 + (i % 7)), name: `user${2001 + (i % 7)}` }, content: `message ${i} in group ${g}`,
      })
    }
  }
  await runtime.written()
  const ms = now() - t
  await runtime.stop()
  return ms
}

export async function historyPull(mode: Mode): Promise<Row[]> {
  const root = join(mode.tmp, 'history-pull')
  const startSec = Math.floor(Date.now() / 1000) - 3600
  await template(join(root, 'template'), startSec)
  const reps = mode.full ? 9 : 5
  const pulled: number[] = []
  const live: number[] = []
  let calls = 0
  let peak = 0
  let stored = 0
  let fresh = 0
  for (let round = 0; round <= reps; round++) {
    for (const kind of round % 2 ? ['live', 'pull'] : ['pull', 'live']) {
      const dir = join(root, `${kind}-${round}`)
      await cp(join(root, 'template'), dir, { recursive: true })
      if (kind === 'pull') {
        const standIn = oneBotStandIn(startSec, 0)
        const r = await pullAll(dir, standIn)
        if (round) pulled.push(r.ms)
        calls = standIn.calls
        peak = Math.max(peak, standIn.peak, r.peak)
        stored = r.stored
      } else {
        const ms = await receiveAll(dir, startSec)
        if (round) live.push(ms)
      }
      await rm(dir, { recursive: true, force: true })
    }
  }
  // the same pull against a platform that takes 5 ms a call: the bound on concurrency shows in the time
  {
    const dir = join(root, 'slow')
    await cp(join(root, 'template'), dir, { recursive: true })
    const standIn = oneBotStandIn(startSec, 5)
    fresh = (await pullAll(dir, standIn)).ms
  }
  const figure = median(pulled)
  const baseline = median(live)
  const ratio = figure / baseline
  const expected = CONVERSATIONS * PER_CONVERSATION
  const reconnect = await historyReconnect(mode)
  return [
    {
      benchmark: `17 history pull on start, ${CONVERSATIONS} conversations × ${PER_CONVERSATION} messages (median of ${reps})`, figure, unit: 'ms',
      baseline, baselineLabel: `the same ${expected.toLocaleString('en')} facts through runtime.receive`, ratio,
      target: 'ratio ≤ 2', pass: ratio <= 2 && stored === expected,
      note: `${stored.toLocaleString('en')} facts stored; rounds: ${pulled.map(x => x.toFixed(0)).join(', ')} ms against ${live.map(x => x.toFixed(0)).join(', ')} ms`,
    },
    {
      benchmark: '17 history pull: platform calls', figure: calls, unit: 'calls', target: `= ${CONVERSATIONS} (one page of 50 each)`, pass: calls === CONVERSATIONS,
    },
    {
      benchmark: '17 history pull: peak concurrent platform calls', figure: peak, unit: 'calls', target: '≤ 4', pass: peak <= 4 && peak > 0,
    },
    {
      benchmark: '17 history pull, the platform answering in 5 ms (informational)', figure: fresh, unit: 'ms',
      note: `${CONVERSATIONS} calls, 4 at a time: at least ${(CONVERSATIONS * 5 / 4).toFixed(0)} ms of waiting`,
    },
    ...reconnect,
  ]
}
