// Tools from MCP servers (SPEC §14), through the whole plugin: real SDK servers over stdio (a
// child process) and streamable HTTP (127.0.0.1), the fake OpenAI server as the model.
import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { Logger } from 'koishi'
import { Harness, call } from '../support/harness'
import { imagePartsOf, toolNamesOf, toolResultsOf, type RecordedRequest } from '../support/fake-openai'
import { httpServerConfig, startHttpMcp, stdioServerConfig, type HttpMcp } from '../support/mcp-http-server'
import { NOTE_TEXT, NOTE_URI } from '../support/mcp-tools'
import { runtimeHome } from '../../src/runtime/runtime'

type Kind = 'stdio' | 'http'

describe('MCP servers (SPEC §14)', function () {
  this.timeout(30000)
  let h: Harness | undefined
  let http: HttpMcp | undefined
  afterEach(async () => {
    await h?.stop()
    await http?.close()
    h = http = undefined
  })

  const status = () => h.app.kotodama.mcpStatus()
  const ready = (id = 't') => h.until(() => status().find(s => s.id === id)?.state === 'ready', `MCP server ${id} ready`, 15000)

  async function start(kind: Kind, o: { profile?: any; server?: any; authorization?: string } = {}) {
    let server: any
    if (kind === 'http') {
      http = await startHttpMcp({ authorization: o.authorization })
      server = httpServerConfig('t', http.url, o.server)
    } else server = stdioServerConfig('t', o.server)
    h = await Harness.start({ mcp: { servers: [server] }, profile: { mcp: ['t'], ...o.profile }, trust: { owners: ['mock:bob'] } })
    await ready()
  }

  /** One direct call through the model: what the model saw of it, and the request that showed it. */
  async function use(name: string, args: unknown = {}): Promise<{ seen: string; next: RecordedRequest }> {
    const before = h.server.requests.length
    h.server.script({ toolCalls: [call(name, args)] }, { toolCalls: [call('finish', {})] })
    await h.client('bob').receive(`go #${before}`)
    await h.server.waitForRequests(before + 2)
    await h.settled()
    const next = h.server.requests[before + 1]
    return { seen: toolResultsOf(next).at(-1).content, next }
  }

  for (const kind of ['stdio', 'http'] as Kind[]) {
    describe(kind, () => {
      it('offers <server>_<tool> with the server\'s description and schema; a text tool answers; bad input is explained', async () => {
        await start(kind)
        const { seen, next } = await use('t_echo', { text: 'hi' })
        expect(seen).to.equal('echo: hi')
        const echo = next.body.tools.find((t: any) => t.function.name === 't_echo').function
        expect(echo.description).to.equal('Echo a text back')
        expect(echo.parameters.properties.text).to.deep.include({ type: 'string', description: 'what to echo' })
        expect(toolNamesOf(next)).to.include.members(['t_lines', 't_image', 't_link', 't_fail', 'read', 'send_message'])
        expect((await use('t_stats')).seen).to.equal('{"count":3}')
        const bad = await use('t_echo', { text: 7 })
        expect(bad.seen).to.match(/^Invalid input for tool t_echo: text: /)
      })

      it('a result of 10,000 lines is archived and paged', async () => {
        await start(kind)
        const { seen } = await use('t_lines', { count: 10000 })
        expect(seen.startsWith('line 1\nline 2\n')).to.equal(true)
        const m = /\[truncated[^\n]*read\(\{url: "(artifact:\/\/t_lines\/[^"?]+)\?offset=(\d+)"\}\)/.exec(seen)
        expect(m, seen.slice(-300)).to.not.equal(null)
        const page2 = await use('read', { url: `${m[1]}?offset=${m[2]}` })
        const shown = seen.split('\n').filter(l => l.startsWith('line ')).length
        expect(page2.seen.startsWith(`line ${shown + 1}\n`), page2.seen.slice(0, 40)).to.equal(true)
        const file = await readFile(`${runtimeHome(h.dataDir, 'neko', 'mock:514')}/artifacts/t_lines/${m[1].split('/').pop()}`, 'utf8')
        expect(file.split('\n')).to.have.length(10000)
        expect(file.endsWith('line 10000')).to.equal(true)
      })

      it('an image becomes an attachment shown to an imageInput model', async () => {
        await start(kind, { profile: { attachment: { imageInput: true } } })
        const { seen, next } = await use('t_image')
        expect(seen).to.match(/^a picture:\n\[attachment: artifact:\/\/t_image\/[0-9a-f]+\.png; image\/png; \d+ bytes; 1x1\]$/)
        expect(imagePartsOf(next)).to.have.length(1)
        expect(imagePartsOf(next)[0]).to.match(/^data:image\/png;base64,/)
      })

      it('without imageInput the image stays its attachment line', async () => {
        await start(kind)
        const { seen, next } = await use('t_image')
        expect(seen).to.match(/\[attachment: artifact:\/\/t_image\/[0-9a-f]+\.png; image\/png; \d+ bytes; 1x1\]/)
        expect(imagePartsOf(next)).to.deep.equal([])
        const sound = await use('t_sound')
        expect(sound.seen).to.match(/^\[attachment: artifact:\/\/t_sound\/[0-9a-f]+\.wav; audio\/wav; 16 bytes\]$/)
      })

      it('a resource link is an mcp:// URL that read opens; an embedded resource shows its text', async () => {
        await start(kind)
        const link = await use('t_link')
        expect(link.seen).to.equal(`[resource: mcp://t/${NOTE_URI}; text/plain; name: hello.txt]`)
        const read = await use('read', { url: `mcp://t/${NOTE_URI}` })
        expect(read.seen).to.equal(NOTE_TEXT)
        const embedded = await use('t_embedded')
        expect(embedded.seen).to.equal(`[resource: mcp://t/${NOTE_URI}; text/plain]\n${NOTE_TEXT}`)
        const image = await use('read', { url: 'mcp://t/note://notes/dot.png' })
        expect(image.seen).to.match(/^\[attachment: artifact:\/\/read\/[0-9a-f]+\.png; image\/png; \d+ bytes; 1x1\]$/)
        const missing = await use('read', { url: 'mcp://nope/x://y' })
        expect(missing.seen).to.match(/^not_found: "nope" is not an MCP server of this profile/)
        // a URI the server does not have: not_found, the server's message once
        const gone = await use('read', { url: 'mcp://t/note://notes/none.txt' })
        expect(gone.seen).to.match(/^not_found: MCP server "t": MCP error -32602: Resource note:\/\/notes\/none\.txt not found$/)
      })

      it('an isError result is an error', async () => {
        await start(kind)
        const { seen } = await use('t_fail')
        expect(seen).to.equal('the tool reported an error: the disk is on fire')
        const history = await readFile(`${runtimeHome(h.dataDir, 'neko', 'mock:514')}/conversations/private%3Abob.jsonl`, 'utf8')
        expect(history).to.include('"type":"error-text","value":"the tool reported an error: the disk is on fire"')
      })

      it('re-lists the tools when the server announces a change', async () => {
        await start(kind)
        const before = status()[0].tools
        const grown = await use('t_grow')
        expect(grown.seen).to.equal('grown')
        await h.until(() => status()[0].tools === before + 1, 'the new tool', 10000)
        const { seen, next } = await use('t_late')
        expect(toolNamesOf(next)).to.include('t_late')
        expect(seen).to.equal('late tool here')
      })

      it('codemode calls two MCP tools with Promise.all; codemode.direct keeps one direct', async () => {
        await start(kind, { profile: { codemode: { enabled: true, direct: ['t_echo'] } } })
        const code = `const [a, b] = await Promise.all([tools.t_slow({ ms: 100, tag: 'slow' }), tools.t_echo({ text: 'fast' })])
const link = await tools.t_link({})
return [a.content[0].text, b.content[0].text, link.content[0].url]`
        const { seen, next } = await use('codemode', { code })
        expect(JSON.parse(seen)).to.deep.equal(['slow after 100 ms', 'echo: fast', `mcp://t/${NOTE_URI}`])
        expect(toolNamesOf(next).sort()).to.deep.equal(['codemode', 'finish', 'schedule', 'search', 'send_message', 't_echo', 'wait', 'write'])
        const desc = next.body.tools.find((t: any) => t.function.name === 'codemode').function.description
        expect(desc).to.match(/t_slow\(input: \{\n\s+ms: number\n\s+tag: string\n\s+\}\): Promise<\{ content: /)
        expect(desc).to.match(/t_stats\(input: Record<string, any>\): Promise<\{ content: .*; structuredContent: \{\n\s+count: number\n\s*\} \}>/)
        expect(desc).to.match(/t_echo\(input: [^)]*\): Promise<\{ content: .*; structuredContent\?: any \}>/)
        const failed = await use('codemode', { code: `try { await tools.t_fail({}) } catch (e) { return e.message }` })
        expect(failed.seen).to.equal('tool "t_fail" failed: the tool reported an error: the disk is on fire')
      })

      it('configured secrets are in no log line and not shown to the model', async () => {
        const base = Logger.levels.base
        Logger.levels.base = 3
        try {
          const secret = 'sekrit-value-4711'
          if (kind === 'stdio') await start(kind, { server: { env: { KOTODAMA_TOKEN: secret } } })
          else await start(kind, { server: { headers: { Authorization: `Bearer ${secret}` } }, authorization: `Bearer ${secret}` })
          const { seen } = await use('t_secret', { name: kind === 'stdio' ? 'KOTODAMA_TOKEN' : 'Authorization' })
          expect(seen).to.match(/=(Bearer )?\*\*\*$/)
          const [shown] = await h.client('bob').receive('kotodama.status')
          expect(shown).to.include('MCP server t: ready')
          if (kind === 'stdio') await h.until(() => h.logs.some(l => l.text.includes('stderr: secret KOTODAMA_TOKEN is')), 'the server\'s stderr line')
          if (kind === 'http') expect(http.refused).to.equal(0)
          const logged = h.logs.map(l => l.text).join('\n')
          expect(logged).to.include('MCP server "t" is ready')
          expect(logged).to.not.include(secret)
          expect(shown).to.not.include(secret)
        } finally {
          Logger.levels.base = base
        }
      })
    })
  }

  it('a server that crashes mid-call: a clear error, a restart, and the next call works', async () => {
    await start('stdio')
    const pid = status()[0].pid
    const { seen } = await use('t_crash')
    expect(seen).to.match(/^MCP server "t" stopped during the call \(the server process exited\); it restarts in 1 s, then the call can be made again$/)
    expect(h.warnings().some(w => w.includes('MCP server "t" stopped: the server process exited; restarting in 1 s'))).to.equal(true)
    // made at once: the call waits for the restart
    expect((await use('t_echo', { text: 'again' })).seen).to.equal('echo: again')
    expect(status()[0].state).to.equal('ready')
    expect(status()[0].pid).to.be.a('number').and.not.equal(pid)
  })

  it('an HTTP server that restarted (its sessions gone): the call says so, the client reconnects, the next call works', async () => {
    await start('http')
    expect((await use('t_echo', { text: 'one' })).seen).to.equal('echo: one')
    const port = Number(new URL(http.url).port)
    await http.close()
    http = await startHttpMcp({ port })
    const { seen } = await use('t_echo', { text: 'two' })
    expect(seen).to.match(/^MCP server "t" stopped during the call \(.+\); it restarts in 1 s, then the call can be made again$/)
    expect((await use('t_echo', { text: 'three' })).seen).to.equal('echo: three')
  })

  it('a call past timeoutMs is an error naming the limit; the server stays up', async () => {
    await start('stdio', { server: { timeoutMs: 300 } })
    const { seen } = await use('t_slow', { ms: 5000, tag: 'late' })
    expect(seen).to.equal('MCP server "t" did not answer within 300 ms')
    expect(status()[0].state).to.equal('ready')
    expect((await use('t_echo', { text: 'fine' })).seen).to.equal('echo: fine')
  })

  it('disposing the plugin leaves no child process', async () => {
    await start('stdio')
    const pid = status()[0].pid
    expect(pid).to.be.a('number')
    expect(() => process.kill(pid, 0)).to.not.throw()
    h.fork.dispose()
    await h.until(() => { try { process.kill(pid, 0); return false } catch (e: any) { return e.code === 'ESRCH' } }, 'the child to exit', 10000)
  })

  it('a server that cannot start is logged and its tools are absent; the rest runs', async () => {
    h = await Harness.start({
      mcp: { servers: [{ ...stdioServerConfig('broken'), command: '/nonexistent/mcp-server', args: [] }, stdioServerConfig('t')] },
      profile: { mcp: ['broken', 't'] },
      trust: { owners: ['mock:bob'] },
    })
    await ready()
    await h.until(() => status().find(s => s.id === 'broken').state === 'retrying', 'the broken server to fail')
    expect(h.warnings().some(w => /MCP server "broken" could not start: .*; next attempt in 1 s/.test(w)), h.warnings().join('\n')).to.equal(true)
    const { seen, next } = await use('t_echo', { text: 'still here' })
    expect(seen).to.equal('echo: still here')
    expect(toolNamesOf(next).filter(n => n.startsWith('broken_'))).to.deep.equal([])
    const [shown] = await h.client('bob').receive('kotodama.status')
    expect(shown).to.match(/MCP server broken: down, next attempt in \d+ s \(.*\), 0 tool\(s\)/)
    expect(shown).to.match(/MCP server t: ready, 13 tool\(s\)/)
  })

  it('server ids with dots, underscores, spaces and other scripts work: valid, distinct tool names, readable mcp:// URLs', async () => {
    const ids = ['srv.v2', 'my_server', 'my server', 'サーバ', 'a-very-long-server-id-that-leaves-little-room-for-the-tool-names']
    // 75 tools: declared all the same, to see every name (SPEC §18 would search them)
    h = await Harness.start({ mcp: { servers: ids.map(id => stdioServerConfig(id)) }, profile: { mcp: ids, tools: { searchAbove: 100 } } })
    for (const id of ids) await ready(id)
    expect(h.warnings()).to.deep.equal([])
    const { next } = await use('srv_v2_echo', { text: 'dots' })
    const names = toolNamesOf(next).filter(n => n.endsWith('echo') || /echo_[0-9a-f]{8}$/.test(n))
    expect(names).to.have.length(ids.length)
    expect(new Set(names).size).to.equal(ids.length)
    for (const n of names) expect(n).to.match(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/)
    expect(names).to.include.members(['srv_v2_echo', 'my_server_echo', '____echo'])
    // 'my server' makes my_server_echo too: it gets the hash, my_server keeps the plain name
    expect(names.find(n => n.startsWith('my_server_echo_'))).to.match(/^my_server_echo_[0-9a-f]{8}$/)
    // a long id is cut, the tool's name stays readable
    const long = names.find(n => n.startsWith('a-very'))
    expect(long).to.have.length(64)
    expect(long).to.match(/_echo_[0-9a-f]{8}$/)
    expect(toolResultsOf(next).at(-1).content).to.equal('echo: dots')
    expect((await use(names.find(n => n.startsWith('my_server_echo_')), { text: 'space' })).seen).to.equal('echo: space')
    expect((await use('read', { url: `mcp://サーバ/${NOTE_URI}` })).seen).to.equal(NOTE_TEXT)
    expect((await use('read', { url: `mcp://my server/${NOTE_URI}` })).seen).to.equal(NOTE_TEXT)
  })

  it('a profile gets only the servers it lists', async () => {
    h = await Harness.start({ mcp: { servers: [stdioServerConfig('t')] }, profile: { mcp: [] } })
    await ready()
    const { seen, next } = await use('read', { url: `mcp://t/${NOTE_URI}` })
    expect(toolNamesOf(next).filter(n => n.startsWith('t_'))).to.deep.equal([])
    expect(seen).to.match(/^unknown_scheme: /)
  })
})
