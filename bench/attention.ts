// 13. Attention and timing (SPEC §15): how many turns and requests a burst of messages costs, what
// the burst wait adds to a single mention, and what a judge adds. A real Runtime with an in-process
// model; the bursts run on simulated time (virtual-clock.ts), the latencies on real time.
import { join } from 'node:path'
import type { LanguageModelV3, LanguageModelV3Content } from '@ai-sdk/provider'
import { DEFAULT_TIMING } from '../src/config/defaults'
import type { Runtime } from '../src/runtime/runtime'
import type { Fact } from '../src/history/entries'
import { median, type Mode, type Row } from './measure'
import { benchRuntime, BOT, sendCall, usage } from './runtime-setup'
import { VirtualClock } from './virtual-clock'

const BURSTS = 100
const PER_BURST = 5
/** the model's answer takes this long (simulated), as a hosted model's does */
const MODEL_MS = 700

/** A model that counts its requests and, after its latency, sends one message. */
function model(o: { sleep(ms: number): Promise<void>; ms: number; counter: { requests: number }; first?: { at?: number }; now?: () => number }): LanguageModelV3 {
  return {
    specificationVersion: 'v3', provider: 'bench', modelId: 'm', supportedUrls: {},
    async doGenerate() {
      o.counter.requests++
      if (o.first && o.first.at === undefined) o.first.at = o.now!()
      if (o.ms) await o.sleep(o.ms)
      const content: LanguageModelV3Content[] = [sendCall(['got it'])]
      return { content, finishReason: { unified: 'tool-calls' as const, raw: undefined }, usage, warnings: [] }
    },
    async doStream() { throw new Error('the bench model does not stream') },
  }
}

let factId = 0
const fact = (at: number, text: string, channel = 'private:u1'): Fact => ({
  id: `a${++factId}`, at, bot: BOT, channel, direct: channel.startsWith('private:'), user: { id: 'u1', name: 'U' }, content: text,
  // the Koishi edge marks a mention of the bot; the bench's facts come without it
  mentionsBot: text.startsWith('<at '),
})

async function turnsOf(runtime: Runtime): Promise<number> {
  const convs = await runtime.loaded()
  return convs.reduce((n, c) => n + c.entries.filter(e => e.type === 'turn').length, 0)
}

/** 100 bursts of five private messages 300–600 ms apart, a quiet minute between bursts. */
async function bursts(dir: string, timing: Record<string, unknown>): Promise<{ turns: number; requests: number }> {
  const clock = new VirtualClock(Date.UTC(2026, 11, 1, 9))
  const counter = { requests: 0 }
  const runtime = await benchRuntime({ dataDir: dir, clock, model: model({ sleep: ms => clock.sleep(ms), ms: MODEL_MS, counter }), profile: { timing } })
  try {
    let seed = 7
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    for (let b = 0; b < BURSTS; b++) {
      for (let m = 0; m < PER_BURST; m++) {
        await runtime.receive(fact(clock.now(), `burst ${b} line ${m}`))
        await clock.advance(300 + Math.floor(rnd() * 300))
      }
      await clock.advance(60_000, 100)
    }
    return { turns: await turnsOf(runtime), requests: counter.requests }
  } finally {
    await runtime.stop()
  }
}

/** Real milliseconds from a waking message to its first model request, median of `n`. */
async function wakeToRequest(dir: string, profile: Record<string, unknown>, n: number, judge?: LanguageModelV3): Promise<number> {
  const counter = { requests: 0 }
  const first: { at?: number } = {}
  const runtime = await benchRuntime({
    dataDir: dir, profile, model: model({ sleep: async () => {}, ms: 0, counter, first, now: () => performance.now() }),
    ...(judge ? { models: [{ id: 'judge', model: judge }] } : {}),
  })
  const times: number[] = []
  try {
    for (let i = 0; i < n; i++) {
      first.at = undefined
      const start = performance.now()
      await runtime.receive(fact(Date.now(), `<at id="1"/> pizza ${i}`, `group:g${i}`))
      const deadline = performance.now() + 10_000
      while (first.at === undefined) {
        if (performance.now() > deadline) throw new Error('no request within 10 s of a waking message')
        await new Promise(r => setTimeout(r, 1))
      }
      times.push(first.at - start)
      await runtime.written()
    }
  } finally {
    await runtime.stop()
  }
  return median(times)
}

/** A judge model that says yes after 100 ms. */
const slowYes: LanguageModelV3 = {
  specificationVersion: 'v3', provider: 'bench', modelId: 'judge', supportedUrls: {},
  async doGenerate() {
    await new Promise(r => setTimeout(r, 100))
    return { content: [{ type: 'text', text: 'yes' }], finishReason: { unified: 'stop' as const, raw: undefined }, usage, warnings: [] }
  },
  async doStream() { throw new Error('no stream') },
}

export async function attention(mode: Mode): Promise<Row[]> {
  const dir = join(mode.tmp, 'attention')
  const now = await bursts(join(dir, 'bursts-new'), {})
  const before = await bursts(join(dir, 'bursts-old'), { debounceMs: 0, debounceMaxMs: 0, yield: 'never' })
  const n = mode.full ? 15 : 5
  const instant = await wakeToRequest(join(dir, 'latency-0'), { timing: { debounceMs: 0, debounceMaxMs: 0 } }, n * 2)
  const debounced = await wakeToRequest(join(dir, 'latency-default'), { timing: {} }, n)
  // a keyword wakes (the judge is asked about keywords, names and waits); no burst wait, to see the judge alone
  const keyword = { wake: { keywords: ['pizza'], mention: false }, timing: { debounceMs: 0, debounceMaxMs: 0 } }
  const unjudged = await wakeToRequest(join(dir, 'judge-none'), keyword, n * 2)
  const judged = await wakeToRequest(join(dir, 'judge-100'), { ...keyword, wake: { ...keyword.wake, judge: 'judge' } }, n * 2, slowYes)
  return [
    {
      benchmark: `13 attention: turns per ${BURSTS} bursts of ${PER_BURST} messages`, figure: now.turns, unit: 'turns',
      baseline: before.turns, baselineLabel: 'no burst wait (before SPEC §15)', ratio: now.turns / before.turns, target: `= ${BURSTS}`, pass: now.turns === BURSTS,
      note: `private chat, messages 300–600 ms apart, the model answering in ${MODEL_MS} ms (simulated time); requests ${now.requests} (before: ${before.requests})`,
    },
    {
      benchmark: `13 attention: requests per ${BURSTS} bursts`, figure: now.requests, unit: 'requests',
      baseline: before.requests, baselineLabel: 'no burst wait', ratio: now.requests / before.requests,
    },
    {
      benchmark: '13 attention: wake-to-first-request, one mention, debounceMs 0', figure: instant, unit: 'ms',
      note: 'what a wake cost before SPEC §15 (no burst wait): the runtime\'s own work', baselineLabel: '',
    },
    {
      benchmark: `13 attention: wake-to-first-request, one mention, default debounce (${DEFAULT_TIMING.debounceMs} ms)`, figure: debounced, unit: 'ms',
      baseline: instant, baselineLabel: 'debounceMs 0', ratio: debounced / instant,
      note: 'the price of merging a burst; the first typing pause is shortened by it, so a reply comes later only by what the wait exceeds that pause',
    },
    {
      benchmark: '13 attention: the judge\'s added latency (a judge answering in 100 ms)', figure: judged - unjudged, unit: 'ms',
      baseline: unjudged, baselineLabel: 'keyword wake without a judge', note: `wake-to-first-request ${judged.toFixed(1)} ms with the judge, ${unjudged.toFixed(1)} ms without`,
    },
  ]
}
