// Child of bench 9 (scale): a Koishi app with plugin-mock and kotodama, events given to the bot
// directly (plugin-mock's clients each listen to every message, which is quadratic in channels).
//   idle <dataDir> <count> claimed|unclaimed   heap and RSS per idle conversation
//   ingest <dataDir> <count>  time to take in `count` plain messages, claimed vs unclaimed
//   burst <dataDir> <count>   wake-to-request latency of `count` private chats at once vs bare generateText
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { App, h, Logger } from 'koishi'
import mock from '@koishijs/plugin-mock'
import { generateText } from 'ai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import * as kotodama from '../src'
import { MB, now, percentile, report } from './measure'

Logger.levels.base = 1

const gc = () => { for (let i = 0; i < 3; i++) (globalThis as any).gc?.() }
const heap = () => { gc(); return process.memoryUsage() }

/** Chat completions that answer `finish` at once and note when each request arrived. */
async function modelServer() {
  const arrivals: number[] = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const at = now()
    let body = ''
    req.setEncoding('utf8').on('data', d => { body += d }).on('end', () => {
      const tag = /bench-(\d+)/.exec(body)
      if (tag) arrivals[Number(tag[1])] = at
      const call = { id: `c${at}`, type: 'function', function: { name: 'finish', arguments: '{}' } }
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({
        id: 'r', object: 'chat.completion', created: 0, model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }))
    })
  })
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  return { baseURL, arrivals, close: () => new Promise(r => server.close(r)) }
}

async function startApp(dataDir: string, baseURL: string, channels: string[], extra: Record<string, unknown> = {}) {
  const app = new App({ i18n: { locales: ['en-US'] } } as any)
  const mockFork = app.plugin(mock)
  await app.start()
  const fork = app.plugin(kotodama, {
    dataDir,
    models: [{ id: 'main', baseURL, apiKey: '', model: 'm', maxRetries: 0 }],
    profiles: [{ id: 'neko', persona: 'You are Neko.', model: 'main', claims: [{ bot: '*', channels }], typing: { baseDelay: 0, charPerSecond: 1000, minDelay: 0, maxDelay: 0, jitter: 0 },
      // the latency row measures the runtime's own work: no burst wait (SPEC §15; bench 13 measures that)
      timing: { debounceMs: 0, debounceMaxMs: 0 }, ...extra }],
  } as any)
  await new Promise(r => setTimeout(r, 50))
  const bot = app.bots[0] as any
  const service = () => app.kotodama as any
  let seq = 0
  const send = (channel: string, content: string, direct = false) => bot.receive({
    platform: 'mock', type: 'message', selfId: bot.selfId, timestamp: Date.now(),
    user: { id: `u-${channel}`, name: `user ${channel}` },
    ...(direct ? {} : { guild: { id: channel } }),
    channel: { id: direct ? `private:u-${channel}` : channel, type: direct ? 1 : 0 },
    message: { id: `m${++seq}`, content, elements: h.parse(content) },
  })
  /** Every message so far taken in: middleware run, facts stored and written. */
  const drained = async () => {
    await new Promise(r => setImmediate(r))
    await service().received()
    for (const r of await service().list()) await r.written()
  }
  // plugin-mock's dispose throws when stopped with the app (koishijs/koishi#1525): it goes first
  const stop = async () => { fork.dispose(); await new Promise(r => setTimeout(r, 20)); mockFork.dispose(); await app.stop() }
  return { app, send, drained, stop }
}

/** One process per kind, so each RSS figure is its own; claimed channels against unclaimed ones. */
async function idle(dataDir: string, count: number, kind: string) {
  const claimed = kind === 'claimed'
  const server = await modelServer()
  // the per-conversation state of the parts counts: people present (on by default) and an idle wake each
  const a = await startApp(dataDir, server.baseURL, ['group:c*'], { initiative: { enabled: true, activeHours: '00:00-24:00' } })
  const prefix = claimed ? 'c' : 'x'
  // warm up: modules, the runtime, a few conversations
  for (let i = 0; i < 50; i++) a.send(`${prefix}w${i}`, 'warm up')
  await a.drained()
  const before = heap()
  for (let i = 0; i < count; i++) {
    a.send(`${prefix}${i}`, `hello from channel ${i}`)
    if (i % 500 === 499) await a.drained()
  }
  await a.drained()
  await new Promise(r => setTimeout(r, 6000))   // idle history files close
  const after = heap()
  report({ count, heapKB: (after.heapUsed - before.heapUsed) / count / 1024, rssKB: (after.rss - before.rss) / count / 1024 })
  await a.stop()
  await server.close()
}

async function ingest(dataDir: string, count: number) {
  const server = await modelServer()
  const a = await startApp(dataDir, server.baseURL, ['group:c*'])
  const times: Record<string, number[]> = { claimed: [], unclaimed: [] }
  for (let round = 0; round < 11; round++) {
    for (const kind of round % 2 ? ['claimed', 'unclaimed'] : ['unclaimed', 'claimed']) {
      const prefix = kind === 'claimed' ? 'c' : 'x'
      const t = now()
      for (let i = 0; i < count; i++) a.send(`${prefix}${i % 100}`, `message ${i} of round ${round}`)
      await a.drained()
      if (round > 0) times[kind].push((now() - t) / count)
    }
  }
  await a.stop()
  await server.close()
  const med = (xs: number[]) => percentile(xs, 50)
  // each round's pair ran back to back, so their ratio is the least disturbed by a busy machine
  const ratios = times.claimed.map((c, i) => c / times.unclaimed[i])
  report({ count, claimedMs: med(times.claimed), unclaimedMs: med(times.unclaimed), ratio: med(ratios), ratios })
}

async function burst(dataDir: string, count: number) {
  const server = await modelServer()
  // bare generateText, the same number of calls at once, to the same server
  const provider = createOpenAICompatible({ name: 'bench', baseURL: server.baseURL })
  const bareStart: number[] = []
  await Promise.all(Array.from({ length: count }, (_, i) => {
    bareStart[i] = now()
    return generateText({ model: provider('m'), prompt: `bench-${i}`, maxRetries: 0 }).catch(() => {})
  }))
  const bare = bareStart.map((t, i) => server.arrivals[i] - t)
  server.arrivals.length = 0
  const a = await startApp(dataDir, server.baseURL, ['private:*'])
  // one warm-up wake (the runtime starts, modules load)
  const warm = count
  const wakeStart: number[] = []
  wakeStart[warm] = now()
  a.send(`w`, `bench-${warm}`, true)
  while (server.arrivals[warm] === undefined) await new Promise(r => setTimeout(r, 5))
  for (let i = 0; i < count; i++) {
    wakeStart[i] = now()
    a.send(`p${i}`, `bench-${i}`, true)
  }
  const deadline = now() + 120_000
  while (server.arrivals.filter(x => x !== undefined).length < count + 1 && now() < deadline) await new Promise(r => setTimeout(r, 20))
  const wake = wakeStart.slice(0, count).map((t, i) => server.arrivals[i] - t).filter(Number.isFinite)
  await a.drained()
  await a.stop()
  await server.close()
  report({
    count, answered: wake.length,
    wakeP50: percentile(wake, 50), wakeP99: percentile(wake, 99),
    bareP50: percentile(bare, 50), bareP99: percentile(bare, 99),
    rssMB: process.memoryUsage().rss / MB,
  })
}

const [mode, dir, n, kind] = process.argv.slice(2)
const run = { idle, ingest, burst }[mode as 'idle']
if (!run) throw new Error(`unknown mode ${mode}`)
run(dir, Number(n), kind).then(() => process.exit(0), e => { console.error(e); process.exit(1) })
