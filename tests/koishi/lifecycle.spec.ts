import { expect } from 'chai'
import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { Harness, call, FAST_TYPING } from '../support/harness'
import { lastUserText, messagesOf, toolNamesOf, toolResultsOf } from '../support/fake-openai'
import { runtimeHome } from '../../src/runtime/runtime'
import { tinyPng } from '../support/tiny-png'

const PNG = tinyPng(0, 1, 1)

describe('history, configuration and the service', function () {
  let h: Harness
  afterEach(async () => { await h?.stop() })

  const convFile = (h: Harness, key: string) => join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'conversations', key + '.jsonl')

  it('history survives a plugin reload', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('send_message', { messages: ['nice to meet you, bob'] })] })
    const bob = h.client('bob')
    await bob.receive('my name is bob')
    await h.until(() => h.sent.length === 1, 'send')
    await h.settled()
    await h.reload()
    h.server.script({ toolCalls: [call('finish', {})] })
    await bob.receive('what is my name?')
    await h.server.waitForRequests(2)
    const msgs = messagesOf(h.server.requests[1])
    const flat = JSON.stringify(msgs)
    expect(flat).to.include('my name is bob')
    expect(flat).to.include('nice to meet you, bob')
    // the send_message call is followed by its result
    const ai = msgs.findIndex(m => m.role === 'assistant' && m.tool_calls)
    expect(msgs[ai + 1].role).to.equal('tool')
    expect(msgs[ai + 1].tool_call_id).to.equal(msgs[ai].tool_calls[0].id)
  })

  it('a torn last JSONL line is skipped with a warning', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('finish', {})] })
    const bob = h.client('bob')
    await bob.receive('before the crash')
    await h.server.waitForRequests(1)
    await h.settled()
    await h.reload()
    await appendFile(convFile(h, 'private%3Abob'), '{"type":"fact","at":1,"fact":{"id":"x","con')
    h.server.script({ toolCalls: [call('finish', {})] })
    await bob.receive('after the crash')
    await h.server.waitForRequests(2)
    const text = JSON.stringify(messagesOf(h.server.requests[1]))
    expect(text).to.include('before the crash')
    expect(text).to.include('after the crash')
    expect(h.warnings().join('\n')).to.match(/torn last line/)
    // the fragment was cut off, so the next append started on a fresh line and every line parses
    await h.settled()
    const lines = (await readFile(convFile(h, 'private%3Abob'), 'utf8')).split('\n').filter(Boolean)
    expect(lines.filter(l => { try { JSON.parse(l); return false } catch { return true } })).to.have.length(0)
    expect(lines.filter(l => l.includes('after the crash'))).to.have.length(1)
  })

  it('a bad profile is reported with its field path and does not start; the others do', async () => {
    h = await Harness.start({
      profiles: [
        { id: 'broken1', model: 'nope', claims: [{ bot: '*', channels: ['room1'] }] },
        { id: 'broken2', model: 'main', claims: [] },
        { id: 'broken3', model: 'main', claims: [{ bot: '*', channels: ['gr*up'] }], maxSteps: -1 },
        { id: 'good', model: 'main', claims: [{ bot: '*', channels: ['*'] }], typing: FAST_TYPING },
      ],
    })
    const w = h.warnings().join('\n')
    expect(w).to.match(/profile "broken1".*profiles\[0\]\.model.*unknown model "nope"/)
    expect(w).to.match(/profile "broken2".*profiles\[1\]\.claims must list at least one claim/)
    expect(w).to.match(/profile "broken3".*profiles\[2\]\.claims\[0\]\.channels\[0\] pattern "gr\*up"/)
    expect(w).to.match(/profile "broken3".*profiles\[2\]\.maxSteps/)
    expect(h.app.kotodama.profiles.map(p => p.id)).to.deep.equal(['good'])
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive('<at id="514"/> hi')
    await h.server.waitForRequests(1)
    expect((await h.app.kotodama.list()).map(r => r.profile.id)).to.deep.equal(['good'])
  })

  it('bad mcp and memory values are reported with their paths: a bad server or an unknown one is left out, a bad pinned URL or quota falls back to its default', async () => {
    const server = (id: any) => ({ id, transport: 'stdio', command: '/nonexistent/mcp', args: [] as string[], env: {}, url: '', headers: {}, timeoutMs: 1000 })
    h = await Harness.start({
      mcp: { servers: [server(''), server('a/b'), server(' pad'), server('Dup'), server('dup'), { ...server('web'), transport: 'http', url: 'ftp://x' }] },
      profiles: [
        { id: 'pins', model: 'main', claims: [{ bot: '*', channels: ['room9'] }], memory: { pinned: ['memory/core.md', 'local://memory/', 'local://memory/a.md:3', 'local://memory/a.md?view=meta', 'local://../x.md'] } },
        { id: 'quota', model: 'main', claims: [{ bot: '*', channels: ['room8'] }], memory: { maxFiles: 1.5, maxFileBytes: -1 } },
        { id: 'good', model: 'main', claims: [{ bot: '*', channels: ['*'] }], typing: FAST_TYPING, mcp: ['ghost', 'Dup', 'web'] },
      ],
    })
    const w = h.warnings()
    const has = (re: RegExp) => expect(w.some(l => re.test(l)), `${re} in\n${w.join('\n')}`).to.equal(true)
    has(/^config mcp\.servers\[0\]\.id must not be empty/)
    has(/^config mcp\.servers\[1\]\.id must not contain "\/"/)
    has(/^config mcp\.servers\[2\]\.id must not start or end with a space/)
    has(/^config mcp\.servers\[4\]\.id duplicates the id of an earlier server/)
    has(/^config mcp\.servers\[5\]\.url must be an http/)
    // one checking style (issue 37): each bad entry is named, the field falls back to its default, the profile starts
    const pins = w.find(l => l.startsWith('profile "pins": config profiles[0].memory.pinned '))
    expect(pins, w.join('\n')).to.not.equal(undefined)
    for (const [i, why] of [[0, 'must be a local:// file URL'], [1, 'names a folder'], [2, 'must be a plain file URL'], [3, 'must be a plain file URL'], [4, 'is not a valid URL']] as const) {
      expect(pins).to.match(new RegExp(`\\[${i}\\] "[^"]*" ${why}`))
    }
    expect(pins).to.match(/; using the default \["local:\/\/memory\/core\.md"\]$/)
    has(/^profile "quota": config profiles\[1\]\.memory\.maxFiles must be a whole number >= 0; using the default 1000/)
    has(/^profile "quota": config profiles\[1\]\.memory\.maxFileBytes must be a whole number >= 0; using the default 1048576/)
    // a server left out of a profile does not stop it, and the line does not say it does
    has(/^profile "good": config profiles\[2\]\.mcp\[0\] names unknown or invalid MCP server "ghost"; it is left out/)
    expect(w.filter(l => / does not start/.test(l))).to.deep.equal([])
    expect(h.app.kotodama.profiles.map(p => p.id)).to.deep.equal(['pins', 'quota', 'good'])
    expect(h.app.kotodama.profiles[1].memory).to.deep.include({ maxFiles: 1000, maxFileBytes: 1048576 })
    expect(h.app.kotodama.profiles[2].mcp).to.deep.equal(['Dup'])
  })

  it('the first claiming profile owns a channel and overlaps are warned about', async () => {
    h = await Harness.start({
      profiles: [
        { id: 'first', model: 'main', claims: [{ bot: '*', channels: ['group:*'] }], typing: FAST_TYPING },
        { id: 'second', model: 'main', claims: [{ bot: 'mock:514', channels: ['room1', 'private:*'] }], typing: FAST_TYPING },
      ],
    })
    h.server.script({ toolCalls: [call('finish', {})] }, { toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive('<at id="514"/> who serves me?')
    await h.client('bob').receive('and me?')
    await h.server.waitForRequests(2)
    const systems = h.server.requests.map(r => r.body.messages[0].content)
    expect((await h.app.kotodama.list()).map(r => r.profile.id).sort()).to.deep.equal(['first', 'second'])
    expect(h.warnings().join('\n')).to.match(/channel group:room1 of bot mock:514 is claimed by profiles "first", "second"; "first" owns it/)
    expect(systems).to.have.length(2)
  })

  it('ctx.kotodama.wake starts a turn now with a note', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('send_message', { messages: ['good morning!'] })] })
    await h.app.kotodama.wake({ bot: 'mock:514', channel: 'room1', reason: 'morning greeting' })
    await h.until(() => h.sent.length === 1, 'send')
    expect(h.sent[0]).to.deep.include({ channel: 'room1', content: 'good morning!' })
    expect(lastUserText(h.server.requests[0])).to.include('[wake: morning greeting]')
    let error: Error
    await h.app.kotodama.wake({ bot: 'mock:514', channel: 'x', reason: 'r', profile: 'nobody' }).catch(e => { error = e })
    expect(error?.message).to.match(/profile "nobody"/)
  })

  it('registerTool adds a business tool to every runtime until its plugin is disposed', async () => {
    h = await Harness.start()
    const fork = h.app.plugin({
      name: 'weather',
      inject: ['kotodama'],
      apply: (ctx: any) => ctx.kotodama.registerTool('get_weather', () => ({
        description: 'Weather of a city',
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }: { city: string }) => ({ city, sky: 'clear' }),
      })),
    })
    await h.idle()
    h.server.script(
      { toolCalls: [call('get_weather', { city: 'Kyoto' })] },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('bob').receive('weather?')
    await h.server.waitForRequests(2)
    expect(toolNamesOf(h.server.requests[0])).to.include('get_weather')
    expect(JSON.parse(toolResultsOf(h.server.requests[1]).at(-1).content)).to.deep.equal({ city: 'Kyoto', sky: 'clear' })
    await h.settled()
    fork.dispose()
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('and now?')
    await h.server.waitForRequests(3)
    expect(toolNamesOf(h.server.requests[2])).to.not.include('get_weather')
  })

  it('send_message resolves local:// media to inline data and reports media it cannot resolve', async () => {
    h = await Harness.start()
    const local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
    await mkdir(local, { recursive: true })
    await writeFile(join(local, 'dot.png'), PNG)
    h.server.script(
      { toolCalls: [call('send_message', { messages: ['look <img src="local://dot.png"/> and <img src="local://missing.png"/>'], continue: true })] },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('bob').receive('show me')
    await h.until(() => h.sent.length === 1, 'send')
    expect(h.sent[0].content).to.equal(`look <img src="data:image/png;base64,${PNG.toString('base64')}"/> and `)
    await h.settled()
    const r = JSON.parse(toolResultsOf(h.server.requests.at(-1)).at(-1).content)
    expect(r).to.deep.include({ ok: true, ids: ['sent-0'] })
    expect(r.dropped).to.have.length(1)
    expect(r.dropped[0]).to.deep.include({ src: 'local://missing.png', code: 'not_found' })
  })

  it('incoming media become asset:// URLs in the fact, with a sidecar', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive(`see <img src="data:image/png;base64,${PNG.toString('base64')}"/>`)
    await h.server.waitForRequests(1)
    const text = lastUserText(h.server.requests[0])
    const m = /<img src="asset:\/\/([0-9a-f-]{36})"\/>/.exec(text)
    expect(m, text).to.not.equal(null)
    expect(text).to.not.include('base64')
    const assets = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'assets')
    const sidecar = JSON.parse(await readFile(join(assets, m[1] + '.json'), 'utf8'))
    expect(sidecar).to.deep.include({ mediaType: 'image/png', byteLength: PNG.length })
  })

  it('kotodama.status and kotodama.reset', async () => {
    h = await Harness.start({ trust: { owners: ['mock:bob'] } })
    h.server.script({ toolCalls: [call('wait', { seconds: 600 })] })
    const bob = h.client('bob')
    await bob.receive('remember this')
    await h.server.waitForRequests(1)
    await h.settled()
    const [status] = await bob.receive('kotodama.status')
    expect(status).to.match(/profile neko on mock:514: 1 conversation/, status)
    expect(status, status).to.match(/private:bob: \d+ entries, idle; waiting for 600 s/)
    const [reset] = await bob.receive('kotodama.reset')
    expect(reset).to.match(/Forgot conversation private:bob of profile neko/)
    const files = await readdir(join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'conversations'))
    expect(files.some(f => f.includes('.reset-'))).to.equal(true)
    h.server.script({ toolCalls: [call('finish', {})] })
    await bob.receive('what did I say?')
    await h.server.waitForRequests(2)
    expect(JSON.stringify(messagesOf(h.server.requests[1]))).to.not.include('remember this')
  })

  it('registerScheme adds a scheme to every runtime; reserved and duplicate schemes throw; dispose removes it', async () => {
    h = await Harness.start()
    const errors: string[] = []
    const fork = h.app.plugin({
      name: 'notes', inject: ['kotodama'],
      apply: (ctx: any) => {
        ctx.kotodama.registerScheme('notes', () => ({
          scheme: 'notes',
          read: async (url: string) => ({ kind: 'text', url, text: `note at ${url}`, mediaType: 'text/plain', source: { url, offset: 0, line: 1, column: 1 }, range: { startLine: 1 } }),
          bytes: async () => ({ data: Buffer.from('x'), mediaType: 'text/plain' }),
        }))
        for (const bad of ['local', 'asset', 'ARTIFACT', 'notes', 'workspace']) {
          try { ctx.kotodama.registerScheme(bad, (): undefined => undefined) } catch (e) { errors.push((e as Error).message) }
        }
      },
    })
    await h.idle()
    expect(errors).to.have.length(5)
    expect(errors[0]).to.match(/reserved/)
    expect(errors[3]).to.match(/already registered/)
    h.server.script({ toolCalls: [call('read', { url: 'notes://today' })] }, { toolCalls: [call('finish', {})] })
    await h.client('bob').receive('what are my notes?')
    await h.server.waitForRequests(2)
    await h.settled()
    expect(toolResultsOf(h.server.requests[1]).at(-1).content).to.equal('note at notes://today')
    expect(h.server.requests[0].body.messages[0].content).to.include('notes')
    fork.dispose()
    h.server.script({ toolCalls: [call('read', { url: 'notes://today' })] }, { toolCalls: [call('finish', {})] })
    await h.client('bob').receive('and now?')
    await h.server.waitForRequests(4)
    expect(toolResultsOf(h.server.requests[3]).at(-1).content).to.match(/^unknown_scheme: "notes" is not a registered scheme; registered: asset, artifact, local, history, workspace/)
  })

  it('a bad codemode quota is reported and replaced by its default', async () => {
    h = await Harness.start({ codemode: { timeoutMs: -5, maxToolCalls: 1.5 } })
    const w = h.warnings().join('\n')
    expect(w).to.match(/codemode\.timeoutMs must be a number > 0; using the default 30000/)
    expect(w).to.match(/codemode\.maxToolCalls must be a whole number > 0; using the default 200/)
    expect(h.app.kotodama.checked.codemode.timeoutMs).to.equal(30000)
  })

  it('a bot going offline stops its runtime; history is there when it is back, and a new turn cancels the wait it had', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('wait', { seconds: 600 })] })
    const bob = h.client('bob')
    await bob.receive('remember the number 7')
    await h.server.waitForRequests(1)
    await h.settled()
    expect((await (await h.app.kotodama.list())[0].status())[0].wait).to.deep.include({ seconds: 600 })
    const bot = h.app.bots[0]
    bot.offline()
    await h.idle(50)
    expect(await h.app.kotodama.list()).to.deep.equal([])
    bot.online()
    h.server.script({ toolCalls: [call('finish', {})] })
    await bob.receive('what was the number?')
    await h.server.waitForRequests(2)
    expect(JSON.stringify(messagesOf(h.server.requests[1]))).to.include('remember the number 7')
    expect((await (await h.app.kotodama.list())[0].status())[0].wait).to.equal(undefined)
  })

  it('registerWakeEngine: a profile picks a custom engine by name; an unknown name falls back to standard', async () => {
    h = await Harness.start({ profile: { wake: { engine: 'every-third' } } })
    h.app.plugin({
      name: 'engine', inject: ['kotodama'],
      apply: (ctx: any) => ctx.kotodama.registerWakeEngine('every-third', () => {
        let n = 0
        return { judge: () => (++n % 3 === 0 ? 'every third message' : undefined) }
      }),
    })
    await h.idle()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    const alice = h.client('alice', 'room1')
    await alice.receive('one')
    await alice.receive('<at id="514"/> two, a mention the custom engine ignores')
    await h.idle(50)
    expect(h.server.requests).to.have.length(0)
    await alice.receive('three')
    await h.server.waitForRequests(1)
    expect(lastUserText(h.server.requests[0])).to.include('three')
    await h.stop()

    h = await Harness.start({ profile: { wake: { engine: 'nobody-registered-this' } } })
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('hi')
    await h.server.waitForRequests(1)
    expect(h.warnings().join('\n')).to.match(/wake engine "nobody-registered-this" is not registered; using standard/)
  })

  it('stopping the plugin lets a send in progress finish', async () => {
    h = await Harness.start({ profile: { typing: { baseDelay: 0, charPerSecond: 1000, minDelay: 400, maxDelay: 400, jitter: 0 } } })
    h.server.script({ toolCalls: [call('send_message', { messages: ['still arrives'] })] })
    await h.client('bob').receive('hello')
    await h.server.waitForRequests(1)
    await h.idle(100)              // the tool is now in its typing pause
    expect(h.sent).to.have.length(0)
    h.fork.dispose()
    await h.until(() => h.sent.length === 1, 'the send', 3000)
    expect(h.sent[0].content).to.equal('still arrives')
  })
})
