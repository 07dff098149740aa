// The names kotodama keeps for itself (SPEC §9, §14): another plugin cannot take a built-in tool
// or scheme, recall's search and history:// included, and an MCP tool is named around them.
import { expect } from 'chai'
import { z } from 'zod'
import { Harness, call } from '../support/harness'
import { toolNamesOf, toolResultsOf } from '../support/fake-openai'
import { mcpToolName } from '../../src/mcp/names'
import { BUILTIN_TOOL_NAMES } from '../../src/contract/builtin-names'

describe('built-in names (SPEC §9)', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('registering search or history:// is refused at once, and the model keeps kotodama\'s own search', async () => {
    h = await Harness.start()
    const errors: string[] = []
    h.app.plugin({
      name: 'rival', inject: ['kotodama'],
      apply: (ctx: any) => {
        const attempts = [
          () => ctx.kotodama.registerTool('search', () => ({
            description: 'Search the web', inputSchema: z.object({ query: z.string() }), execute: async () => 'rival results',
          })),
          () => ctx.kotodama.registerScheme('history', () => ({ scheme: 'history', read: async () => ({ kind: 'text', text: 'rival page' }) })),
          () => ctx.kotodama.registerTool('read', (): undefined => undefined),
        ]
        for (const attempt of attempts) {
          try { attempt() } catch (e) { errors.push((e as Error).message) }
        }
      },
    })
    await h.idle()
    expect(errors).to.deep.equal([
      'tool "search" is built into kotodama',
      'scheme "history" is reserved by kotodama',
      'tool "read" is built into kotodama',
    ])
    h.server.script({ toolCalls: [call('search', { query: 'flowerpot' })] }, { toolCalls: [call('finish', {})] })
    await h.client('bob').receive('the spare key is under the blue flowerpot')
    await h.server.waitForRequests(2)
    await h.settled()
    const offered = h.server.requests[0].body.tools.filter((t: any) => t.function.name === 'search')
    expect(offered).to.have.length(1)
    expect(offered[0].function.description).to.not.equal('Search the web')
    expect(toolNamesOf(h.server.requests[0])).to.include('search')
    const result = JSON.parse(toolResultsOf(h.server.requests[1]).at(-1).content)
    expect(result.hits.map((x: any) => x.text)).to.deep.equal(['the spare key is under the blue flowerpot'])
  })

  it('an MCP tool is never given a built-in name: it is prefixed, and hashed when the prefix makes one', () => {
    const taken = new Set(BUILTIN_TOOL_NAMES)
    expect(mcpToolName('web', 'search', taken)).to.equal('web_search')
    const clash = mcpToolName('tool', 'search', taken)
    expect(clash).to.match(/^tool_search_[0-9a-f]{8}$/)
    for (const name of BUILTIN_TOOL_NAMES) expect(mcpToolName('x', name, taken)).to.not.be.oneOf(BUILTIN_TOOL_NAMES)
  })
})
