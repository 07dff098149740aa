// The parts of the MCP support that need no model: tool names, the input check, restart delays.
import { expect } from 'chai'
import { McpConnection } from '../../src/mcp/connection'
import { McpManager } from '../../src/mcp/manager'
import { Backoff } from '../../src/mcp/backoff'
import { mcpInputSchema } from '../../src/mcp/input-schema'
import { mcpToolName, MAX_TOOL_NAME } from '../../src/mcp/names'
import { parseMcpUrl } from '../../src/mcp/url'
import type { Clock } from '../../src/util/clock'
import { Extensions } from '../../src/runtime/extensions'
import { asSchema } from 'ai'
import { until } from '../support/app-waits'

describe('MCP parts (SPEC §14)', () => {
  it('tool names: <server>_<tool>, valid characters, at most 64, distinct', () => {
    const ext = new Extensions()
    expect(mcpToolName('files', 'read_file')).to.equal('files_read_file')
    expect(mcpToolName('files', 'get.thing/v2 ü')).to.equal('files_get_thing_v2__')
    expect(mcpToolName('9lives', 'x')).to.equal('_9lives_x')
    const long = 'a_tool_with_a_rather_long_name_that_goes_well_past_the_limit_of_sixty_four'
    const a = mcpToolName('server', long)
    const b = mcpToolName('server', long + '_too')
    expect(a).to.have.length(MAX_TOOL_NAME)
    expect(b).to.have.length(MAX_TOOL_NAME)
    expect(a).to.not.equal(b)
    const first = mcpToolName('s', 'a.b')
    const second = mcpToolName('s', 'a_b', new Set([first]))
    expect(second).to.not.equal(first)
    for (const name of [a, b, second, mcpToolName('9lives', 'x'), mcpToolName('s', 'x'.repeat(200))]) {
      expect(() => ext.addTool(name, () => undefined)).to.not.throw()
    }
  })

  it('tool names of odd server ids: any id gives a valid name; a long id is cut before the tool\'s name is', () => {
    const valid = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/
    expect(mcpToolName('srv.v2', 'echo')).to.equal('srv_v2_echo')
    expect(mcpToolName('my server', 'echo')).to.equal('my_server_echo')
    expect(mcpToolName('サーバ', 'ツール')).to.equal('_______')
    const long = mcpToolName('s'.repeat(100), 'get_weather')
    expect(long).to.match(valid).and.have.length(MAX_TOOL_NAME)
    expect(long).to.match(/^s+_get_weather_[0-9a-f]{8}$/)
    // both long: the server keeps its first 16 characters, the tool the rest
    const both = mcpToolName('s'.repeat(100), 't'.repeat(100))
    expect(both).to.match(/^s{16}_t{38}_[0-9a-f]{8}$/)
    for (const n of [long, both, mcpToolName('1', '2'), mcpToolName('-x', 'y')]) expect(n).to.match(valid)
  })

  it('two servers whose names meet (a.b + c, a + b.c) offer distinct tools', () => {
    const added: string[] = []
    const logger = { debug() {}, info() {}, warn() {}, error() {} }
    const clock: Clock = { now: () => 0, monotonic: () => 0, queueMicrotask, setTimeout: () => { const t = { cancel() {}, unref: () => t }; return t } }
    const config = (id: string) => ({ id, transport: 'stdio' as const, command: 'x', args: [] as string[], env: {}, url: '', headers: {}, timeoutMs: 500 })
    const manager = new McpManager([config('a.b'), config('a')], {
      logger, clock, addTool: name => { if (added.includes(name)) throw new Error(`tool "${name}" is already registered`); added.push(name); return () => added.splice(added.indexOf(name), 1) },
    })
    const def = (name: string) => ({ name, inputSchema: { type: 'object' as const } })
    manager.connection('a.b').onTools([def('c')])
    manager.connection('a').onTools([def('b.c'), def('d')])
    expect(added).to.have.length(3)
    expect(added[0]).to.equal('a_b_c')
    expect(added[1]).to.match(/^a_b_c_[0-9a-f]{8}$/)
    // listing again keeps the names (the other server's stay taken)
    manager.connection('a').onTools([def('b.c'), def('d')])
    expect(added).to.have.members(['a_b_c', added[1], 'a_d'])
  })

  it('a server\'s tool whose name would be a built-in tool\'s gets the hash instead of being left out', () => {
    const added: string[] = []
    const warned: string[] = []
    const logger = { debug() {}, info() {}, warn: (...a: any[]) => warned.push(a.join(' ')), error() {} }
    const clock: Clock = { now: () => 0, monotonic: () => 0, queueMicrotask, setTimeout: () => { const t = { cancel() {}, unref: () => t }; return t } }
    const ext = new Extensions()
    const manager = new McpManager([{ id: 'send', transport: 'stdio', command: 'x', args: [], env: {}, url: '', headers: {}, timeoutMs: 500 }], {
      logger, clock, addTool: (name, factory) => { added.push(name); return ext.addTool(name, factory) },
    })
    manager.connection('send').onTools([{ name: 'message', inputSchema: { type: 'object' } }])
    expect(added).to.have.length(1)
    expect(added[0]).to.match(/^send_message_[0-9a-f]{8}$/)
    expect(warned).to.deep.equal([])
  })

  it('mcp:// URLs keep the server URI whole', () => {
    expect(parseMcpUrl('mcp://files/file:///tmp/a b.txt?x=1')).to.deep.equal({ server: 'files', uri: 'file:///tmp/a b.txt?x=1' })
    expect(() => parseMcpUrl('mcp://files')).to.throw(/write mcp:\/\/<server>\/<resource uri>/)
  })

  it('the input schema: the server\'s JSON Schema as given, checked like a zod schema', () => {
    const raw = { type: 'object', properties: { q: { type: 'string', description: 'query' }, n: { type: 'integer', minimum: 1 } }, required: ['q'] }
    const schema = mcpInputSchema(raw) as any
    expect(asSchema(schema).jsonSchema).to.deep.equal(raw)
    expect(schema.safeParse({ q: 'x', extra: true })).to.deep.equal({ success: true, data: { q: 'x', extra: true } })
    const bad = schema.safeParse({ q: 1, n: 0 })
    expect(bad.success).to.equal(false)
    expect(bad.error.issues.map((i: any) => i.path.join('.'))).to.include.members(['q', 'n'])
    // a schema zod cannot read still lets objects through (the server checks again)
    expect(mcpInputSchema(undefined).safeParse({ a: 1 }).success).to.equal(true)
  })

  it('restart delays double from 1 s to 60 s, and start over after a long run', () => {
    const b = new Backoff()
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(() => b.take())).to.deep.equal([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000])
    b.ended(59_000)
    expect(b.take()).to.equal(60000)
    b.ended(60_000)
    expect(b.take()).to.equal(1000)
  })

  describe('a server that cannot start', () => {
    let now = 0
    let timers: { fn: () => void; ms: number; cancelled: boolean }[] = []
    const clock: Clock = {
      now: () => now, monotonic: () => now, queueMicrotask: fn => queueMicrotask(fn),
      setTimeout(fn, ms) {
        const t = { fn, ms, cancelled: false }
        timers.push(t)
        const timer = { cancel: () => { t.cancelled = true }, unref: () => timer }
        return timer
      },
    }
    const logs: string[] = []
    const logger = { debug() {}, info() {}, warn: (...a: any[]) => logs.push(a.join(' ')), error: (...a: any[]) => logs.push(a.join(' ')) }
    const config = { id: 'gone', transport: 'stdio' as const, command: '/nonexistent/mcp-server', args: [] as string[], env: {}, url: '', headers: {}, timeoutMs: 500 }
    let c: McpConnection
    beforeEach(() => { now = 0; timers = []; logs.length = 0 })
    afterEach(() => c?.stop())

    it('is tried again after 1, 2, 4 … 60 s, logged, with no tools', async () => {
      c = new McpConnection(config, { logger, clock })
      c.start()
      const delays: number[] = []
      for (let i = 0; i < 8; i++) {
        await until(() => timers.length === i + 1 && c.state === 'retrying', `attempt ${i + 1}`)
        const t = timers[i]
        delays.push(t.ms)
        now += t.ms
        t.fn()
      }
      expect(delays).to.deep.equal([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000])
      expect(c.tools).to.deep.equal([])
      expect(logs[0]).to.match(/could not start/)
      await c.stop()
      expect(c.status().state).to.equal('stopped')
    })

    it('a call gets a clear error at once when the next attempt is past its timeout', async () => {
      c = new McpConnection(config, { logger, clock })
      c.start()
      const error = await c.call('x', {}).then((): undefined => undefined, (e: Error) => e)
      expect(error?.message).to.match(/^MCP server "gone" is down \(.+\); the next attempt to start it is in 1 s$/)
      await until(() => c.state === 'retrying', 'retrying')
      const again = await c.call('x', {}).then((): undefined => undefined, (e: Error) => e)
      expect(again?.message).to.match(/^MCP server "gone" is down/)
    })
  })
})
