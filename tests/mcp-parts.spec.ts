// The parts of the MCP support that need no model: tool names, the input check, restart delays.
import { expect } from 'chai'
import { McpConnection } from '../src/mcp/connection'
import { Backoff } from '../src/mcp/backoff'
import { mcpInputSchema } from '../src/mcp/input-schema'
import { mcpToolName, MAX_TOOL_NAME } from '../src/mcp/names'
import { parseMcpUrl } from '../src/mcp/url'
import type { Clock } from '../src/util/clock'
import { Extensions } from '../src/runtime/extensions'
import { asSchema } from 'ai'

const realSetTimeout = globalThis.setTimeout
const until = async (cond: () => boolean, what: string) => {
  const start = Date.now()
  while (!cond()) {
    if (Date.now() - start > 10000) throw new Error(`timed out waiting for ${what}`)
    await new Promise(r => realSetTimeout(r, 5))
  }
}

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
