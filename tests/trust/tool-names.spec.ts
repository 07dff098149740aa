// `trust.tools` names tools as declared to the model (SPEC §22): one that matches no tool guards
// nothing, so it is logged once at start with its field path; built-in, registered and MCP names
// (`<server>_<tool>`, listed only once the server connects) are not.
import { expect } from 'chai'
import { z } from 'zod'
import { Harness } from '../support/harness'
import { unmatchedTrustTools } from '../../src/trust/tool-names'
import { checkConfig } from '../../src/runtime/config-of-parts'

describe('trust.tools: a name that matches no tool', function () {
  this.timeout(15000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('is logged once at start with its field path; built-in, registered and MCP names are not', async () => {
    const tools = ['write', 'wipe_notes', 'files_delete', 'wipe_note', 'files_']
    // the MCP server never connects: its tools are not listed, its names still match
    const files = { id: 'files', transport: 'stdio', command: 'no-such-command-for-this-test' }
    h = await Harness.start({ trust: { owners: [], tools }, mcp: { servers: [files] } })
    h.app.plugin({
      name: 'acts', inject: ['kotodama'],
      apply: (ctx: any) => ctx.kotodama.registerTool('wipe_notes', () => ({ description: 'Delete every note', inputSchema: z.object({}), execute: async () => ({}) })),
    })
    await h.until(() => h.warnings().some(w => w.includes('trust.tools')), 'the trust.tools line', 6000)
    await h.idle(200)
    const lines = h.warnings().filter(w => w.includes('trust.tools'))
    expect(lines).to.have.length(2)
    expect(lines[0]).to.include('trust.tools[3]').and.include('"wipe_note" names no tool')
    expect(lines[1]).to.include('trust.tools[4]')
  })

  it('the check alone: MCP prefixes match only a longer name', () => {
    const found = unmatchedTrustTools(['send_message', 'x', 'srv_', 'srv_t'], { registered: [], mcpPrefixes: ['srv_'] })
    expect(found.map(p => p.path)).to.deep.equal(['trust.tools[1]', 'trust.tools[2]'])
  })

  it('an entry that is no name is reported with its path and left out', () => {
    const checked = checkConfig({ models: [], profiles: [], mcp: { servers: [] }, trust: { owners: [], tools: [3, '', 'wipe_notes'] } } as any)
    expect(checked.trust.tools).to.deep.equal(['wipe_notes'])
    expect(checked.problems.map(p => p.path)).to.include.members(['trust.tools[0]', 'trust.tools[1]'])
  })
})
