// The console page's data (SPEC §12): the transcript shaped from history entries, and the
// listeners the page calls, through the demo's console WebSocket (no browser needed). Usage and
// cost per step, turn, conversation and day (SPEC §16); model calls that failed (SPEC §11).
import { expect } from 'chai'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Logger } from 'koishi'
import WebSocket from 'ws'
import { transcript } from '../../src/console-data/transcript'
import { conversationSummaries, conversationTranscript, runtimeSummary } from '../../src/console-data/summary'
import { runtimeHome } from '../../src/runtime/runtime'
import { storedConversations, storedTranscript } from '../../src/console-data/stored'
import { Harness, call } from '../support/harness'
import { until } from '../support/app-waits'
import type { Entry } from '../../src/history/entries'
import { startDemo, type Demo } from '../../scripts/demo'
import { freePort } from '../support/free-port'
import { stdioServerConfig } from '../support/mcp-http-server'
import { LoadedConversations } from '../../src/runtime/loaded-conversations'
import { memoryDatabase, sqliteDatabase } from '../support/databases'

const fact = (id: string, content: string, at = 1000): Entry => ({
  type: 'fact', at, wake: 'direct',
  fact: { id, at, bot: 'mock:1', channel: 'private:bob', direct: true, user: { id: 'bob', name: 'Bob' }, content },
})

describe('console: the transcript of a conversation', () => {
  const entries: Entry[] = [
    fact('m1', 'look <img src="asset://abc.png"/> here'),
    { type: 'turn', at: 1001, turn: 1, reason: 'direct' },
    {
      type: 'step', at: 1002, turn: 1, usage: { model: 'main', latencyMs: 1234, promptTokens: 100, completionTokens: 20 },
      messages: [
        { role: 'assistant', content: [
          { type: 'reasoning', text: 'bob shows a picture' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { url: 'asset://abc.png' } },
        ] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: 'line 1\nline 2' } }] },
      ],
    },
    { type: 'attachments', at: 1002, turn: 1, id: 'c1', source: 'tool', tool: 'read', items: [{ url: 'asset://abc.png', mediaType: 'image/png', lifetime: 'once' }] },
    {
      type: 'step', at: 1003, turn: 1, usage: { model: 'main', latencyMs: 500, promptTokens: 150, completionTokens: 10 },
      messages: [
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c2', toolName: 'send_message', input: { messages: ['a cat!', 'cute'] } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c2', toolName: 'send_message', output: { type: 'json', value: { ok: false, error: { name: 'SendFailed', message: 'rate limited' }, sent: ['x1'], failedAt: 1 } } }] },
      ],
    },
  ]

  it('shows the fact with its image, the turn with its steps, tokens and end, the calls with their results and sends', () => {
    const t = transcript({ key: 'private:bob', entries, busy: false })
    expect(t.items.map(i => i.kind)).to.deep.equal(['fact', 'turn', 'step', 'step'])
    const [f, turn, read, send] = t.items as any[]
    expect(f).to.deep.include({ text: 'look [image] here', images: ['asset://abc.png'], wake: 'direct' })
    expect(turn).to.deep.include({ turn: 1, reason: 'direct', steps: 2, tokens: 280, end: 'failed', error: 'SendFailed: rate limited' })
    expect(read).to.deep.include({ model: 'main', latencyMs: 1234, reasoning: 'bob shows a picture' })
    expect(read.calls[0]).to.deep.include({ tool: 'read', result: 'line 1\nline 2', error: false })
    expect(read.attachments).to.deep.equal([{ url: 'asset://abc.png', mediaType: 'image/png' }])
    expect(send.calls[0].send).to.deep.equal({ messages: ['a cat!', 'cute'], delivered: false, ids: 1, error: 'SendFailed: rate limited' })
  })

  const price = { input: 2, cachedInput: 0.5, output: 8 }
  const priced = (id: string) => id === 'main' ? price : undefined

  it('each step shows its cached tokens and cost, each turn its cost, the whole its figures; a model without a price has no cost', () => {
    const withCache: Entry[] = [
      ...entries,
      { type: 'turn', at: 2001, turn: 2, reason: 'direct' },
      { type: 'step', at: 2002, turn: 2, usage: { model: 'main', latencyMs: 9, promptTokens: 1000, cachedTokens: 600, completionTokens: 100 }, messages: [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c3', toolName: 'finish', input: {} }] }, { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c3', toolName: 'finish', output: { type: 'json', value: { ok: true } } }] }] },
      { type: 'step', at: 2003, turn: 2, usage: { model: 'local', latencyMs: 9, promptTokens: 50, completionTokens: 5 }, messages: [{ role: 'assistant', content: 'hm' }] },
    ]
    const t = transcript({ key: 'k', entries: withCache, busy: false, priceOf: priced })
    const steps = t.items.filter(i => i.kind === 'step') as any[]
    expect(steps.map(s => s.cost)).to.deep.equal([(100 * 2 + 20 * 8) / 1e6, (150 * 2 + 10 * 8) / 1e6, (400 * 2 + 600 * 0.5 + 100 * 8) / 1e6, undefined])
    expect(steps[2]).to.include({ cachedTokens: 600, promptTokens: 1000 })
    const turns = t.items.filter(i => i.kind === 'turn') as any[]
    expect(turns[0].cost).to.be.closeTo((100 * 2 + 20 * 8 + 150 * 2 + 10 * 8) / 1e6, 1e-15)
    expect(turns[1].cost).to.be.closeTo(0.0019, 1e-15)
    expect(t.usage).to.deep.include({ steps: 4, promptTokens: 1300, cachedTokens: 600, completionTokens: 135, since: 1002 })
    expect(t.usage.cost).to.be.closeTo(0.00074 + 0.0019, 1e-15)
    // no price at all: no cost anywhere, not 0
    const unpriced = transcript({ key: 'k', entries: withCache, busy: false })
    expect(unpriced.usage).to.not.have.property('cost')
    expect(unpriced.items.some((i: any) => i.cost !== undefined)).to.equal(false)
  })

  it('a failed model call is shown on its turn with the model and the server\'s words; the turn ended by it says so', () => {
    const error = 'HTTP 503 from http://127.0.0.1:9/v1/chat/completions: upstream connect error'
    const failed: Entry[] = [
      fact('m1', 'hello'),
      { type: 'turn', at: 1001, turn: 1, reason: 'direct' },
      { type: 'failure', at: 1002, turn: 1, model: 'main', error, latencyMs: 3000 },
      fact('m2', 'again', 1100),
      { type: 'turn', at: 1101, turn: 2, reason: 'direct' },
      { ...entries[2], turn: 2 } as Entry,
      { type: 'failure', at: 1103, turn: 2, model: 'spare', error: 'fetch failed: connect ECONNREFUSED 127.0.0.1:9' },
      { type: 'turn', at: 1201, turn: 3, reason: 'direct' },
      { type: 'failure', at: 1202, turn: 3, model: 'main', error: 'timeout' },
      { ...entries[4], turn: 3 } as Entry,
    ]
    const t = transcript({ key: 'k', entries: failed, busy: false })
    expect(t.items.map(i => i.kind)).to.deep.equal(['fact', 'turn', 'failure', 'fact', 'turn', 'step', 'failure', 'turn', 'failure', 'step'])
    expect(t.items[2]).to.deep.equal({ kind: 'failure', at: 1002, turn: 1, model: 'main', error, latencyMs: 3000 })
    const turns = t.items.filter(i => i.kind === 'turn') as any[]
    expect(turns[0]).to.deep.include({ steps: 0, end: 'error', error })
    expect(turns[1]).to.deep.include({ steps: 1, end: 'error', error: 'fetch failed: connect ECONNREFUSED 127.0.0.1:9' })
    // a step after the failure (the same turn went on): the turn ended as that step did
    expect(turns[2]).to.deep.include({ steps: 1, end: 'failed', error: 'SendFailed: rate limited' })
  })

  it('why a wake was held, merged, deferred or declined (SPEC §15)', () => {
    const fact = (id: string, extra: object) => ({ type: 'fact', at: 1, fact: { id, at: 1, bot: 'mock:1', channel: 'group:1', direct: false, user: { id: 'u', name: 'U' }, content: id }, ...extra }) as Entry
    const t = transcript({ key: 'k', busy: false, entries: [
      fact('old', { held: 'stale' }), fact('bot', { held: 'bot' }), fact('a', { wake: 'mention' }), fact('b', { wake: 'name:Koto' }),
      { type: 'turn', at: 2, turn: 1, reason: 'mention', merged: 2, waitedMs: 1500 },
      { type: 'declined', at: 3, reason: 'keyword:pizza', why: 'the judge said "no"' },
      { type: 'turn', at: 4, turn: 2, reason: 'wait:time', late: true },
    ] })
    expect(t.items.slice(0, 4).map((i: any) => i.held ?? i.wake)).to.deep.equal(['stale', 'bot', 'mention', 'name:Koto'])
    expect(t.items[4]).to.deep.include({ kind: 'turn', merged: 2, waitedMs: 1500 })
    expect(t.items[5]).to.deep.equal({ kind: 'declined', at: 3, reason: 'keyword:pizza', why: 'the judge said "no"' })
    expect(t.items[6]).to.deep.include({ kind: 'turn', late: true })
  })

  it('a turn of a busy conversation is running; a limit keeps the newest entries', () => {
    expect((transcript({ key: 'k', entries, busy: true }).items[1] as any).end).to.equal('running')
    const t = transcript({ key: 'k', entries, busy: false, limit: 2 })
    expect(t.truncated).to.equal(true)
    expect(t.items.map(i => i.kind)).to.deep.equal(['step'])
  })
})

describe('console: the listeners of the page', function () {
  this.timeout(15000)
  let demo: Demo
  let dataDir: string
  let ws: WebSocket
  const events: any[] = []
  const replies = new Map<string, (v: any) => void>()
  const baseLevel = Logger.levels.base

  const typing = { baseDelay: 0, charPerSecond: 1000, minDelay: 1, maxDelay: 5, jitter: 0 }
  const PRICE = { input: 2, cachedInput: 0.5, output: 8 }

  async function connect() {
    ws = new WebSocket(demo.url.replace(/^http/, 'ws') + '/status')
    ws.on('message', (data) => {
      const m = JSON.parse(String(data))
      if (m.type === 'response') replies.get(m.body.id)?.(m.body)
      else events.push(m)
    })
    await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject) })
  }

  before(async () => {
    Logger.levels.base = 1
    dataDir = await mkdtemp(join(tmpdir(), 'kotodama-console-'))
    demo = await startDemo({ port: await freePort(), offline: true, dataDir, typing, price: PRICE })
    await connect()
  })

  after(async () => {
    ws?.terminate()
    await demo?.stop()
    Logger.levels.base = baseLevel
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  let n = 0
  function call(type: string, ...args: any[]): Promise<any> {
    const id = `q${++n}`
    return new Promise((resolve, reject) => {
      replies.set(id, (body) => body.error ? reject(new Error(JSON.stringify(body.error))) : resolve(body.value))
      ws.send(JSON.stringify({ type, args, id }))
    })
  }

  it('runtimes, conversations and the transcript come from the runtime; the page is told about changes', async () => {
    expect(await call('kotodama/runtimes')).to.deep.equal([])
    ws.send(JSON.stringify({ type: 'sandbox/send-message', args: ['sandbox:alice', 'alice', '@alice', 'hello console'], id: 'send' }))
    await until(() => events.filter(e => e.type === 'sandbox/message' && e.body.user === 'Koishi').length === 2, 'the answer')
    await until(() => events.some(e => e.type === 'kotodama/changed'), 'a change pushed to the page')

    const [runtime] = await call('kotodama/runtimes')
    expect(runtime).to.deep.include({ profile: 'demo', bot: 'sandbox:alice:koishi', online: true, conversations: 1, requestsToday: 1 })
    const [conversation] = await call('kotodama/conversations', 'demo', 'sandbox:alice:koishi')
    expect(conversation).to.deep.include({ key: 'private:alice', mode: 'channel', turns: 1, busy: false })
    expect(conversation.last).to.deep.include({ user: 'alice', text: 'hello console' })
    await until(async () => (await call('kotodama/transcript', 'demo', 'sandbox:alice:koishi', 'private:alice')).items.length === 4, 'the whole turn')
    const t = await call('kotodama/transcript', 'demo', 'sandbox:alice:koishi', 'private:alice')
    // the turn opens with the people present (SPEC §27: every speaker has a [people] line)
    expect(t.items.map((i: any) => i.kind)).to.deep.equal(['fact', 'turn', 'note', 'step'])
    expect(t.items[3].calls[0].send).to.deep.include({ delivered: true, ids: 2 })
  })

  it('an image URL outside the runtime\'s assets and artifacts is refused; an unknown runtime is an error', async () => {
    expect(await call('kotodama/image', 'demo', 'sandbox:alice:koishi', 'file:///etc/passwd')).to.equal(null)
    let error: Error | undefined
    await call('kotodama/conversations', 'nobody', 'sandbox:alice:koishi').catch(e => { error = e })
    expect(error).to.not.equal(undefined)
  })

  const BOT = 'sandbox:alice:koishi'
  const send = (user: string, text: string) => ws.send(JSON.stringify({ type: 'sandbox/send-message', args: ['sandbox:alice', user, `@${user}`, text], id: `send-${Date.now()}` }))
  const answers = () => events.filter(e => e.type === 'sandbox/message' && e.body.user === 'Koishi').length
  const history = (key: string) => join(dataDir, 'kotodama', 'demo', 'sandbox', 'alice%3Akoishi', 'conversations', `${encodeURIComponent(key)}.jsonl`)

  it('after a restart of Koishi, the runtime is listed (not running) before any message, with its conversation and transcript from disk', async () => {
    ws.terminate()
    await demo.stop()
    events.length = 0
    demo = await startDemo({
      port: await freePort(), offline: true, dataDir, typing, price: PRICE,
      mcpServers: [stdioServerConfig('t'), stdioServerConfig('broken', { command: join(dataDir, 'no-such-server') })],
    })
    await connect()
    const before = await readFile(history('private:alice'))

    const [runtime] = await call('kotodama/runtimes')
    expect(runtime).to.deep.include({ profile: 'demo', bot: BOT, running: false, online: false, conversations: 0, requestsToday: 1 })
    const [conversation] = await call('kotodama/conversations', 'demo', BOT)
    expect(conversation).to.deep.include({ key: 'private:alice', stored: 'files', busy: false, bytes: before.length })
    expect(conversation.modifiedAt).to.be.closeTo(Date.now(), 60_000)
    const t = await call('kotodama/transcript', 'demo', BOT, 'private:alice')
    // the turn opens with the people present (SPEC §27: every speaker has a [people] line)
    expect(t.items.map((i: any) => i.kind)).to.deep.equal(['fact', 'turn', 'note', 'step'])
    expect(t.items[0].text).to.equal('hello console')
    expect(t.truncated).to.equal(false)
    expect(await call('kotodama/transcript', 'demo', BOT, 'private:nobody')).to.equal(null)
    // listing and reading started nothing and changed nothing
    expect(await demo.app.kotodama.list()).to.deep.equal([])
    expect((await readFile(history('private:alice'))).equals(before)).to.equal(true)
    // wake now needs the bot: there is none until the sandbox user writes again
    let error: Error | undefined
    await call('kotodama/wake', 'demo', BOT, 'private:alice').catch(e => { error = e })
    expect(error?.message).to.include('not connected')
  })

  it('a conversation the budget unloaded is listed as on disk and its transcript read from there; reset uses the runtime\'s own reset', async () => {
    // a budget of one loaded conversation, before the runtime starts (it takes the service's budget then)
    ;(demo.app.kotodama as any).loaded = new LoadedConversations(1)
    send('alice', 'again, alice')
    await until(() => answers() === 2, 'the answer to alice')
    send('bob', 'hello from bob')
    await until(() => answers() === 4, 'the answer to bob')
    const [runtime] = await demo.app.kotodama.list()
    await until(async () => (await runtime.status()).map(c => c.key).join() === 'private:bob', 'alice unloaded')

    expect((await call('kotodama/runtimes'))[0]).to.deep.include({ bot: BOT, running: true, online: true, conversations: 1 })
    const list = await call('kotodama/conversations', 'demo', BOT)
    expect(list.map((c: any) => [c.key, c.stored ?? 'loaded'])).to.deep.equal([['private:bob', 'loaded'], ['private:alice', 'files']])
    const t = await call('kotodama/transcript', 'demo', BOT, 'private:alice')
    expect(t.items.filter((i: any) => i.kind === 'fact').map((i: any) => i.text)).to.deep.equal(['hello console', 'again, alice'])
    expect(t.items.filter((i: any) => i.kind === 'turn')).to.have.length(2)
    // reading it did not load it
    expect((await runtime.status()).map(c => c.key)).to.deep.equal(['private:bob'])

    expect(await call('kotodama/reset', 'demo', BOT, 'private:alice')).to.equal(true)
    const folder = await readdir(join(history('private:alice'), '..'))
    expect(folder.filter(n => n.startsWith('private%3Aalice.reset-'))).to.have.length(1)
    expect(await call('kotodama/transcript', 'demo', BOT, 'private:alice')).to.deep.include({ items: [] })
  })

  it('the MCP servers: state, tools, the next attempt and its error; the page is told when one changes', async () => {
    await until(async () => (await call('kotodama/mcp')).find((s: any) => s.id === 't')?.state === 'ready', 'server t ready')
    const [t, broken] = await call('kotodama/mcp')
    expect(t).to.deep.include({ id: 't', state: 'ready' })
    expect(t.tools).to.be.greaterThan(0)
    await until(async () => (await call('kotodama/mcp'))[1].state === 'retrying', 'server broken retrying')
    const down = (await call('kotodama/mcp'))[1]
    expect(down).to.deep.include({ id: 'broken', state: 'retrying', tools: 0 })
    expect(down.error).to.be.a('string').and.not.equal('')
    expect(down.retryInMs).to.be.within(0, 60_000)
    expect(events.some(e => e.type === 'kotodama/mcp-changed')).to.equal(true)
  })

  it('"wake now" on a runtime that is not running (its bot is there) starts it through the service and wakes the conversation', async () => {
    // the runtime stops while its bot stays, as after a plugin reload
    ;(demo.app.kotodama as any).runtimes.stopWhere((r: any) => r.bot === BOT)
    await until(async () => (await call('kotodama/runtimes'))[0].running === false, 'the runtime stopped')
    expect((await call('kotodama/runtimes'))[0]).to.deep.include({ bot: BOT, online: true, running: false })
    await call('kotodama/wake', 'demo', BOT, 'private:bob')
    expect((await call('kotodama/runtimes'))[0]).to.deep.include({ running: true })
    const woken = async () => (await call('kotodama/transcript', 'demo', BOT, 'private:bob')).items
      .some((i: any) => i.kind === 'turn' && i.reason === 'wake:the owner, from the console' && i.end !== 'running')
    await until(woken, 'the woken turn')
  })

  it('costs: per step, per conversation (its list entry and its transcript), per day (the runtime card and its last days); a failed model call on its turn', async () => {
    const COSTS = 'sandbox:costs:koishi'
    const home = runtimeHome(join(dataDir, 'kotodama'), 'demo', COSTS)
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10)
    const transcriptOf = (key: string) => call('kotodama/transcript', 'demo', COSTS, key)
    const turnsSent = async () => (await transcriptOf('private:dora'))?.items.filter((i: any) => i.kind === 'turn' && i.end === 'send').length ?? 0
    for (const [n, text] of [[1, 'what do I cost?'], [2, 'and now?']] as const) {
      ws.send(JSON.stringify({ type: 'sandbox/send-message', args: ['sandbox:costs', 'dora', '@dora', text], id: `costs-${n}` }))
      await until(async () => await turnsSent() === n, `turn ${n}`)
    }

    // each step: its tokens as the offline model reported them, its cost at the configured price (per
    // million tokens: the uncached prompt at 2, the cached part at 0.5, the completion at 8)
    const t = await transcriptOf('private:dora')
    const steps = t.items.filter((i: any) => i.kind === 'step')
    expect(steps).to.have.length(2)
    for (const s of steps) {
      const cached = s.cachedTokens ?? 0
      expect(s.cost).to.be.closeTo(((s.promptTokens - cached) * 2 + cached * 0.5 + s.completionTokens * 8) / 1e6, 1e-12)
    }
    // the second request repeats the first one's prefix: the (simulated) prompt cache served part of it
    expect(steps[1].cachedTokens).to.be.greaterThan(0)
    const sum = (k: string) => steps.reduce((n: number, s: any) => n + (s[k] ?? 0), 0)
    expect(t.usage).to.deep.include({ steps: 2, promptTokens: sum('promptTokens'), cachedTokens: sum('cachedTokens'), completionTokens: sum('completionTokens'), since: steps[0].at })
    expect(t.usage.cost).to.be.closeTo(sum('cost'), 1e-12)
    // the conversation list counts the same steps
    const [conversation] = await call('kotodama/conversations', 'demo', COSTS)
    expect(conversation.usage).to.deep.equal(t.usage)
    // the runtime card: today over all its conversations (this one only)
    const card = (await call('kotodama/runtimes')).find((r: any) => r.bot === COSTS)
    expect(card.days).to.have.length(1)
    expect(card.days[0]).to.deep.include({ day: day(0), requests: 2, errors: 0, promptTokens: t.usage.promptTokens, cachedTokens: t.usage.cachedTokens, completionTokens: t.usage.completionTokens })
    expect(card.days[0].cost).to.be.closeTo(t.usage.cost, 1e-12)

    // stopped, it is listed from its home: today from its daily file, the days before from theirs
    ;(demo.app.kotodama as any).runtimes.stopWhere((r: any) => r.bot === COSTS)
    await until(async () => (await call('kotodama/runtimes')).find((r: any) => r.bot === COSTS)?.running === false, 'the runtime stopped')
    // yesterday's file from before cached tokens and costs were counted; one of three days ago with them
    await writeFile(join(home, 'usage', `${day(1)}.json`), JSON.stringify({ day: day(1), models: { main: { requests: 4, errors: 1, promptTokens: 4000, completionTokens: 400 } } }))
    await writeFile(join(home, 'usage', `${day(3)}.json`), JSON.stringify({ day: day(3), models: { main: { requests: 2, errors: 0, promptTokens: 2000, cachedTokens: 1500, completionTokens: 100, cost: 0.0025 } } }))
    const stored = (await call('kotodama/runtimes')).find((r: any) => r.bot === COSTS)
    expect(stored.days.map((d: any) => d.day)).to.deep.equal([day(0), day(1), day(3)])
    expect(stored.days[0]).to.deep.include({ requests: 2, promptTokens: t.usage.promptTokens, cachedTokens: t.usage.cachedTokens })
    expect(stored.days[0].cost).to.be.closeTo(t.usage.cost, 1e-12)
    expect(stored.days[1]).to.deep.equal({ day: day(1), requests: 4, errors: 1, promptTokens: 4000, cachedTokens: 0, completionTokens: 400 })
    expect(stored.days[2]).to.deep.equal({ day: day(3), requests: 2, errors: 0, promptTokens: 2000, cachedTokens: 1500, completionTokens: 100, cost: 0.0025 })

    // a turn whose model call failed, as the turn loop records it; read from storage, priced from the config
    const error = 'HTTP 503 from the server: "upstream connect error or disconnect/reset before headers"'
    await writeFile(join(home, 'conversations', 'private%3Aerin.jsonl'), [
      fact('e1', 'are you there?', Date.now() - 5000),
      { type: 'turn', at: Date.now() - 4999, turn: 1, reason: 'direct' },
      { type: 'step', at: Date.now() - 4000, turn: 1, usage: { model: 'main', latencyMs: 900, promptTokens: 1000, cachedTokens: 600, completionTokens: 100 }, messages: [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'r1', toolName: 'read', input: { url: 'local://memory/core.md' } }] }, { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'r1', toolName: 'read', output: { type: 'text', value: '(empty)' } }] }] },
      { type: 'failure', at: Date.now() - 1000, turn: 1, model: 'main', error, latencyMs: 3000 },
    ].map(e => JSON.stringify(e)).join('\n') + '\n')
    const failed = await transcriptOf('private:erin')
    expect(failed.items.map((i: any) => i.kind)).to.deep.equal(['fact', 'turn', 'step', 'failure'])
    expect(failed.items[1]).to.deep.include({ end: 'error', error, steps: 1 })
    expect(failed.items[3]).to.deep.include({ kind: 'failure', turn: 1, model: 'main', error, latencyMs: 3000 })
    expect(failed.items[2].cost).to.be.closeTo(0.0019, 1e-12)
    expect(failed.usage).to.deep.include({ steps: 1, promptTokens: 1000, cachedTokens: 600, completionTokens: 100 })
  })
})

describe('console: conversation summaries', () => {
  let h: Harness
  const folders: string[] = []
  afterEach(async () => {
    await h?.stop()
    for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true })
  })

  it('a pending wait shows its windows, what it has seen, turns and the history size', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('wait', { seconds: 600, messages: 3 })] })
    await h.client('bob').receive('ping me later')
    await h.server.waitForRequests(1)
    await h.settled()
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob', 'room').receive('unrelated chatter elsewhere')
    const [runtime] = await h.app.kotodama.list()
    const summary = (await conversationSummaries(runtime)).find(c => c.key === 'private:bob')
    expect(summary).to.deep.include({ key: 'private:bob', mode: 'channel', busy: false, turns: 1 })
    expect(summary.wait).to.deep.include({ seconds: 600, messages: 3, factsSeen: 0 })
    expect(summary.bytes).to.be.greaterThan(0)
    expect(summary.last).to.deep.include({ user: 'bob', text: 'ping me later' })
  })

  it('the runtime card: tokens and requests today, last activity, the files of its memory folder', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('hello')
    await h.server.waitForRequests(1)
    await h.settled()
    const [runtime] = await h.app.kotodama.list()
    expect((await runtimeSummary(runtime, true)).memory).to.deep.equal([])
    await mkdir(join(runtime.home, 'local', 'memory', 'people'), { recursive: true })
    await writeFile(join(runtime.home, 'local', 'memory', 'people', 'bob.md'), 'likes tea\n')
    const card = await runtimeSummary(runtime, true)
    expect(card).to.deep.include({ profile: 'neko', bot: 'mock:514', online: true, conversations: 1, requestsToday: 1 })
    expect(card.tokensToday).to.be.greaterThan(0)
    expect(card.lastActivity).to.be.a('number')
    expect(card.memory).to.deep.equal([{ name: 'people/bob.md', size: 10 }])
  })

  for (const driver of ['memory', 'SQLite']) it(`storage: database on ${driver} — after a plugin reload the runtime is found in the table; its conversations are listed and read without starting it`, async function () {
    const dir = await mkdtemp(join(tmpdir(), 'kotodama-console-db-'))
    folders.push(dir)
    const database = driver === 'memory' ? memoryDatabase() : sqliteDatabase(join(dir, 'koishi.db'))
    if (typeof database === 'string') {
      console.log(`      (skipped: ${database})`)
      this.skip()
    }
    h = await Harness.start({ storage: 'database', database })
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('hello table')
    await h.server.waitForRequests(1)
    await h.settled()
    await h.reload()
    // no home on disk: the table alone tells
    await rm(join(h.dataDir, 'neko'), { recursive: true, force: true })
    const stored = await h.app.kotodama.stored()
    expect(stored.map(s => [s.profile.id, s.bot])).to.deep.equal([['neko', 'mock:514']])
    const side = h.app.kotodama.storedHistory(stored[0].profile, 'mock:514')
    expect(await storedConversations(side, 'channel', new Set())).to.deep.equal([{ key: 'private:bob', mode: 'channel', busy: false, stored: 'database' }])
    const t = await storedTranscript(side, 'private:bob')
    expect(t.items.map(i => i.kind)).to.deep.equal(['fact', 'turn', 'note', 'step'])
    expect(t.items[0]).to.deep.include({ text: 'hello table' })
    expect(await h.app.kotodama.list()).to.deep.equal([])
  })

  it('what a conversation and a day cost, from real requests: the list entry, the transcript and the runtime card agree; a failed call is on its turn', async () => {
    h = await Harness.start({ model: { price: { input: 2, cachedInput: 0.5, output: 8 } } })
    h.server.script(
      { toolCalls: [call('finish', {})], usage: { prompt_tokens: 1000, completion_tokens: 50 } },
      { toolCalls: [call('finish', {})], usage: { prompt_tokens: 1200, cached_tokens: 1000, completion_tokens: 10 } },
      { status: 503, error: 'the upstream is overloaded' },
    )
    for (const [n, text] of [[1, 'hello'], [2, 'hello again'], [3, 'still there?']] as const) {
      await h.client('bob').receive(text)
      await h.server.waitForRequests(n)
      await h.settled()
    }
    const [runtime] = await h.app.kotodama.list()
    // (1000 × 2 + 50 × 8) / 1e6 + (200 × 2 + 1000 × 0.5 + 10 × 8) / 1e6
    const cost = 0.0024 + 0.00098
    const [summary] = await conversationSummaries(runtime)
    expect(summary.usage).to.deep.include({ steps: 2, promptTokens: 2200, cachedTokens: 1000, completionTokens: 60 })
    expect(summary.usage.cost).to.be.closeTo(cost, 1e-12)
    const t = await conversationTranscript(runtime, 'private:bob')
    expect(t.usage).to.deep.equal(summary.usage)
    const steps = t.items.filter(i => i.kind === 'step') as any[]
    expect(steps.map(s => [s.promptTokens, s.cachedTokens ?? 0, s.completionTokens])).to.deep.equal([[1000, 0, 50], [1200, 1000, 10]])
    expect(steps[1].cost).to.be.closeTo(0.00098, 1e-12)
    // the third turn: the model call failed, with the server's words
    const turns = t.items.filter(i => i.kind === 'turn') as any[]
    expect(turns.map(x => x.end)).to.deep.equal(['finish', 'finish', 'error'])
    expect(turns[2].error).to.include('the upstream is overloaded')
    const failure = t.items.find(i => i.kind === 'failure') as any
    expect(failure).to.deep.include({ turn: 3, model: 'main' })
    expect(failure.error).to.include('503')
    const card = await runtimeSummary(runtime, true)
    expect(card.days).to.have.length(1)
    expect(card.days[0]).to.deep.include({ requests: 3, errors: 1, promptTokens: 2200, cachedTokens: 1000, completionTokens: 60 })
    expect(card.days[0].cost).to.be.closeTo(cost, 1e-12)
  })

  it('the step is shown as soon as the model answered, stamped with the time it was called; each message as it is delivered (issue 21)', async () => {
    h = await Harness.start({ profile: { typing: { baseDelay: 0, charPerSecond: 1000, minDelay: 400, maxDelay: 400, jitter: 0 } } })
    let calledAt = 0
    h.server.script(() => {
      calledAt = Date.now()
      return { toolCalls: [call('send_message', { messages: ['one', 'two', 'three'] })] }
    })
    await h.client('bob').receive('count to three')
    await h.server.waitForRequests(1)
    const [runtime] = await h.app.kotodama.list()
    const live = async () => (await conversationTranscript(runtime, 'private:bob')).items.find(i => i.kind === 'step') as any
    // before the first message is typed out, the step is there
    await h.until(() => calledAt > 0)
    let step: any
    const deadline = Date.now() + 2000
    while (!(step = await live()) && Date.now() < deadline) await h.idle(5)
    expect(h.sent, 'nothing delivered yet').to.have.length(0)
    expect(step).to.deep.include({ live: true, model: 'main' })
    expect(step.at).to.be.within(calledAt - 1000, calledAt + 50)
    expect(step.calls[0]).to.deep.include({ tool: 'send_message', running: true })
    expect(step.calls[0].send).to.deep.include({ sending: true, ids: 0, delivered: false })
    await h.until(() => h.sent.length === 1, 'the first message')
    await h.idle(20)
    expect((await live()).calls[0].send).to.deep.include({ sending: true, ids: 1 })
    await h.settled()
    const done = await live()
    expect(done.live).to.equal(undefined)
    expect(done.calls[0].send).to.deep.include({ delivered: true, ids: 3 })
    expect(done.at, 'the stored step keeps the time its model was called').to.equal(step.at)
  })

  it('a send the platform refused: the turn shows its error, and the runtime card counts it among today\'s errors (issue 21)', async () => {
    h = await Harness.start({ failSend: { at: 1, message: 'the platform refused: rate limited' }, profile: { strayText: 'drop' } })
    // the model leaves it at that: the turn ended on the failed send
    h.server.script({ toolCalls: [call('send_message', { messages: ['one', 'two'] })] }, { content: '' })
    await h.client('bob').receive('say two things')
    await h.server.waitForRequests(2)
    await h.settled()
    const [runtime] = await h.app.kotodama.list()
    const t = await conversationTranscript(runtime, 'private:bob')
    const turn = t.items.find(i => i.kind === 'turn') as any
    expect(turn, JSON.stringify(t.items.slice(-4))).to.deep.include({ end: 'failed' })
    expect(turn.error).to.match(/^SendFailed: .*rate limited/)
    const card = await runtimeSummary(runtime, true)
    expect(card).to.deep.include({ requestsToday: 2, errorsToday: 1 })
    expect(runtime.usage.snapshot().map(m => m.model), 'the model counts stay the models\'').to.deep.equal(['main'])
  })

  it('homes count only for configured profiles that claim their bot; a torn last line is left out and left alone', async () => {
    h = await Harness.start({ profile: { claims: [{ bot: 'mock:*', channels: ['*'] }] } })
    const home = (profile: string, platform: string, self: string) => join(h.dataDir, profile, platform, self, 'conversations')
    for (const dir of [home('neko', 'mock', '514'), home('neko', 'other', '1'), home('ghost', 'mock', '514')]) await mkdir(dir, { recursive: true })
    const file = join(home('neko', 'mock', '514'), 'private%3Abob.jsonl')
    const torn = JSON.stringify(fact('m1', 'whole')) + '\n' + '{"type":"fact","at":'
    await writeFile(file, torn)
    expect((await h.app.kotodama.stored()).map(s => `${s.profile.id} ${s.bot}`)).to.deep.equal(['neko mock:514'])
    const side = h.app.kotodama.storedHistory(h.app.kotodama.profiles[0], 'mock:514')
    const t = await storedTranscript(side, 'private:bob')
    expect(t.items.map(i => i.kind === 'fact' && i.text)).to.deep.equal(['whole'])
    expect(await readFile(file, 'utf8')).to.equal(torn)
    expect(h.logs.filter(l => l.level === 'warn')).to.deep.equal([])
  })
})
