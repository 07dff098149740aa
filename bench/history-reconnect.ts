// 17, reconnect (issue 37, defect 5): a runtime of 2,000 stored group conversations, 50 of them with
// activity in the last day, its bot coming online again. The edge's policy (src/history-pull/pull.ts:
// only conversations active within history.pullMaxAgeHours) against the policy it replaced, every
// stored conversation, through the same HistoryPull and a OneBot stand-in, in the same run. Each
// platform call answers after LATENCY_MS with the conversation's last stored message (nothing was
// said meanwhile), so the time shows what the platform's calls cost against listing the home.
import { cp, mkdir, rm, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { HistoryPull } from '../src/history-pull/pull'
import type { PullingRuntime } from '../src/history-pull/ports'
import { historySource } from '../src/koishi/history-pull/sources'
import { runtimeHome, type Runtime } from '../src/runtime/runtime'
import { KeyedQueue } from '../src/util/keyed-queue'
import type { Logger } from '../src/util/logger'
import { safeName } from '../src/util/safe-name'
import { median, now, type Mode, type Row } from './measure'
import { benchRuntime, BOT, scriptedModel } from './runtime-setup'

const STORED = 2000
const ACTIVE = 50
const HOUR = 3_600_000
/** one history call's answer, as bench 17's informational row */
const LATENCY_MS = 5
const PROFILE = { claims: [{ bot: '*', channels: ['group:*'] }] }
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} }

/** A home of STORED conversations holding one message each; every (STORED / ACTIVE)th changed 2 hours ago, the rest 3 days ago. */
async function template(dataDir: string): Promise<void> {
  const dir = join(runtimeHome(dataDir, 'p', BOT), 'conversations')
  await mkdir(dir, { recursive: true })
  const t = Date.now()
  for (let g = 0; g < STORED; g++) {
    const at = g % (STORED / ACTIVE) === 0 ? t - 2 * HOUR : t - 72 * HOUR
    const fact = { id: String(g * 1000), at, bot: BOT, channel: `group:${g}`, direct: false, user: { id: '2001', name: 'Old' }, content: 'the last one' }
    const file = join(dir, `${safeName(`group:${g}`)}.jsonl`)
    await writeFile(file, JSON.stringify({ type: 'fact', at, fact }) + '\n')
    await utimes(file, at / 1000, at / 1000)
  }
}

/** A OneBot bot whose history holds only each group's last stored message; counts the calls. */
function standIn(): { bot: any; calls: number } {
  const s = { calls: 0, bot: undefined as any }
  s.bot = {
    platform: 'onebot', selfId: '10001',
    internal: {
      async _request(_action: string, p: any) {
        s.calls++
        await new Promise(r => setTimeout(r, LATENCY_MS))
        const g = Number(p.group_id)
        const last = { message_id: g * 1000, message_seq: g * 1000, time: 1, user_id: 2001, sender: { user_id: 2001 }, message: [] as unknown[] }
        return { status: 'ok', retcode: 0, data: { messages: [last] } }
      },
    },
  }
  return s
}

/** The runtime as the pull sees it; `everyStored`: the policy before issue 37 (no recency filter). */
function viewOf(runtime: Runtime, everyStored: boolean, listed: (n: number) => void): PullingRuntime {
  const pulled = runtime.pulled
  return {
    bot: runtime.bot, profile: runtime.profile, options: runtime.options,
    pulled: {
      conversations: since => pulled.conversations(everyStored ? undefined : since).then(keys => { listed(keys.length); return keys }),
      points: key => pulled.points(key), last: channel => pulled.last(channel), store: facts => pulled.store(facts),
    },
  }
}

/** The runtime started and its start's pull done; then the bot comes online again: calls and ms until that pull is done. */
async function reconnect(dir: string, everyStored: boolean): Promise<{ calls: number; ms: number }> {
  const runtime = await benchRuntime({ dataDir: dir, model: scriptedModel(() => []), profile: PROFILE })
  const s = standIn()
  const queue = new KeyedQueue()
  let queued = 0
  let expected = -1
  const view = viewOf(runtime, everyStored, n => { expected = n })
  const pulls = new HistoryPull({
    log: quiet, profiles: () => [runtime.profile], owner: () => runtime.profile, source: () => historySource(s.bot),
    kit: r => ({ assets: runtime.assets, bot: r.bot, selfId: '10001' }), running: async () => view, active: () => true,
    queue: (_p, _b, conversation, task) => { queued++; return queue.run(conversation, task) },
  })
  const done = async () => {
    while (expected < 0 || queued < expected) await new Promise(r => setImmediate(r))
    await queue.idle()
  }
  pulls.started(view)
  await done()
  queued = 0
  expected = -1
  const calls = s.calls
  const t = now()
  pulls.online(BOT)
  await done()
  const ms = now() - t
  await runtime.stop()
  return { calls: s.calls - calls, ms }
}

const rounds = (xs: number[]) => xs.map(x => x.toFixed(0)).join(', ')

export async function historyReconnect(mode: Mode): Promise<Row[]> {
  const root = join(mode.tmp, 'history-reconnect')
  await template(join(root, 'template'))
  const reps = mode.full ? 5 : 3
  const recent: number[] = []
  const every: number[] = []
  let calls = 0
  let baselineCalls = 0
  for (let round = 0; round <= reps; round++) {
    for (const everyStored of round % 2 ? [true, false] : [false, true]) {
      const dir = join(root, `${everyStored ? 'every' : 'recent'}-${round}`)
      await cp(join(root, 'template'), dir, { recursive: true, preserveTimestamps: true })
      const r = await reconnect(dir, everyStored)
      if (everyStored) baselineCalls = r.calls
      else calls = r.calls
      if (round) (everyStored ? every : recent).push(r.ms)
      await rm(dir, { recursive: true, force: true })
    }
  }
  const figure = median(recent)
  const baseline = median(every)
  return [
    {
      benchmark: `17 reconnect, ${STORED.toLocaleString('en')} stored conversations, ${ACTIVE} active in the last day: history calls`,
      figure: calls, unit: 'calls', baseline: baselineCalls, baselineLabel: 'every stored conversation pulled (before issue 37)',
      ratio: calls / baselineCalls, target: `≤ ${ACTIVE}`, pass: calls <= ACTIVE && calls > 0,
    },
    {
      benchmark: `17 reconnect, ${STORED.toLocaleString('en')} stored, ${ACTIVE} active: ms until pulled, ${LATENCY_MS} ms a call (median of ${reps})`,
      figure, unit: 'ms', baseline, baselineLabel: 'every stored conversation pulled', ratio: figure / baseline,
      target: 'ratio ≤ 0.1', pass: figure <= baseline * 0.1,
      note: `4 calls at a time; rounds: ${rounds(recent)} ms against ${rounds(every)} ms`,
    },
  ]
}
