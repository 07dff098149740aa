// The console page's data (SPEC §12): the transcript shaped from history entries, and the
// listeners the page calls, through the demo's console WebSocket (no browser needed).
import { expect } from 'chai'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Logger } from 'koishi'
import WebSocket from 'ws'
import { transcript } from '../src/console-data/transcript'
import { conversationSummaries, runtimeSummary } from '../src/console-data/summary'
import { storedConversations, storedTranscript } from '../src/console-data/stored'
import { Harness, call } from './support/harness'
import type { Entry } from '../src/runtime/types'
import { startDemo, type Demo } from '../scripts/demo'
import { freePort } from './support/free-port'
import { stdioServerConfig } from './support/mcp-http-server'
import { LoadedConversations } from '../src/runtime/loaded-conversations'
import { memoryDatabase, sqliteDatabase } from './support/databases'

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
    expect(turn).to.deep.include({ turn: 1, reason: 'direct', steps: 2, tokens: 280, end: 'failed' })
    expect(read).to.deep.include({ model: 'main', latencyMs: 1234, reasoning: 'bob shows a picture' })
    expect(read.calls[0]).to.deep.include({ tool: 'read', result: 'line 1\nline 2', error: false })
    expect(read.attachments).to.deep.equal([{ url: 'asset://abc.png', mediaType: 'image/png' }])
    expect(send.calls[0].send).to.deep.equal({ messages: ['a cat!', 'cute'], delivered: false, ids: 1, error: 'SendFailed: rate limited' })
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
    demo = await startDemo({ port: await freePort(), offline: true, dataDir, typing })
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

  async function until(cond: () => boolean | Promise<boolean>, what: string) {
    const deadline = Date.now() + 8000
    while (!await cond()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
      await new Promise(r => setTimeout(r, 25))
    }
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
    await until(async () => (await call('kotodama/transcript', 'demo', 'sandbox:alice:koishi', 'private:alice')).items.length === 3, 'the whole turn')
    const t = await call('kotodama/transcript', 'demo', 'sandbox:alice:koishi', 'private:alice')
    expect(t.items.map((i: any) => i.kind)).to.deep.equal(['fact', 'turn', 'step'])
    expect(t.items[2].calls[0].send).to.deep.include({ delivered: true, ids: 2 })
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
      port: await freePort(), offline: true, dataDir, typing,
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
    expect(t.items.map((i: any) => i.kind)).to.deep.equal(['fact', 'turn', 'step'])
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
    ;(demo.app.kotodama as any).stopBot(BOT)
    await until(async () => (await call('kotodama/runtimes'))[0].running === false, 'the runtime stopped')
    expect((await call('kotodama/runtimes'))[0]).to.deep.include({ bot: BOT, online: true, running: false })
    await call('kotodama/wake', 'demo', BOT, 'private:bob')
    expect((await call('kotodama/runtimes'))[0]).to.deep.include({ running: true })
    const woken = async () => (await call('kotodama/transcript', 'demo', BOT, 'private:bob')).items
      .some((i: any) => i.kind === 'turn' && i.reason === 'wake:the owner, from the console' && i.end !== 'running')
    await until(woken, 'the woken turn')
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
    expect(t.items.map(i => i.kind)).to.deep.equal(['fact', 'turn', 'step'])
    expect(t.items[0]).to.deep.include({ text: 'hello table' })
    expect(await h.app.kotodama.list()).to.deep.equal([])
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
