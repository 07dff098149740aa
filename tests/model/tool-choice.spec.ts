// models[].toolChoice (SPEC §27): required where the server honours tool_choice, so a step never
// ends in plain text; the request body is what the fake OpenAI-compatible server received.
import { expect } from 'chai'
import { Harness, call } from '../support/harness'
import { checkConfig } from '../../src/runtime/config-of-parts'

describe('models[].toolChoice (SPEC §27)', () => {
  let h: Harness | undefined
  afterEach(async () => { await h?.stop(); h = undefined })

  async function firstBody(model: Record<string, unknown>) {
    h = await Harness.start({ model })
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive('<at id="514"/> hi')
    await h.server.waitForRequests(1)
    await h.settled()
    return h.server.requests[0].body as Record<string, unknown>
  }

  it('required: each step asks the server for a tool call (tool_choice "required")', async () => {
    const body = await firstBody({ toolChoice: 'required' })
    expect(body.tool_choice).to.equal('required')
    expect((body.tools as unknown[]).length).to.be.greaterThan(0)
  })

  it('auto (the default): the server decides (tool_choice "auto", as the AI SDK sends with tools)', async () => {
    const body = await firstBody({})
    expect(body.tool_choice).to.equal('auto')
  })

  it('with tools in the text (hermes) there is nothing to force: no tool_choice', async () => {
    const body = await firstBody({ toolChoice: 'required', toolCalls: 'hermes' })
    expect(body).to.not.have.property('tool_choice')
  })

  it('a bad value is reported with its path (the entry is left out, as for any bad model field)', () => {
    const checked = checkConfig({
      models: [{ id: 'main', baseURL: 'http://127.0.0.1:1/v1', model: 'm', maxRetries: 0, timeoutMs: 1000, contextTokens: 0, toolChoice: 'always' }],
      profiles: [],
    } as any)
    expect(checked.problems.map(p => p.path)).to.deep.equal(['models[0].toolChoice'])
    expect(checked.problems[0].message).to.equal('must be auto or required')
  })
})
