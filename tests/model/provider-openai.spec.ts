// kotodama on OpenAI's Responses API and on Moonshot (SPEC §11.1). The Responses fake
// (tests/support/fakes/wire/openai-responses.ts, OpenAI's "Responses API" and "Reasoning") keeps
// nothing with `store: false` and refuses a function call sent back without its encrypted reasoning
// item; the Moonshot guard (tests/support/moonshot.ts, openai-agents-python #2669) refuses a
// tool-call message without reasoning_content, and older Moonshot models report a top-level
// `usage.cached_tokens`.
import { expect } from 'chai'
import { MoonshotThinking, moonshotUsage } from '../support/moonshot'
import { call, Harness } from '../support/harness'

describe('providers: OpenAI (Responses API) and Moonshot', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('the Responses API: reasoning goes back encrypted with its function call across a turn\'s steps; nothing is stored', async () => {
    h = await Harness.start({ model: { provider: 'openai', model: 'gpt-5' } })
    const responses = h.server.responses()
    responses.script(
      { reasoning: 'Bob said hello; greet him, then finish.', toolCalls: [{ name: 'send_message', arguments: { messages: ['hi Bob'], continue: true } }] },
      { toolCalls: [{ name: 'finish', arguments: {} }] },
    )
    await h.client('bob').receive('hello')
    await h.until(() => responses.requests.length === 2, 'two requests')
    await h.settled()
    expect(h.sent.map(s => s.content)).to.deep.equal(['hi Bob'])
    const [first, second] = responses.requests
    expect(first.body).to.deep.include({ store: false, include: ['reasoning.encrypted_content'] })
    const [issued] = h.server.issuedReasoning
    const item = second.body.input.find((i: any) => i.type === 'reasoning')
    expect(item).to.deep.include({ id: issued.id, encrypted_content: issued.encrypted_content })
    // the result of the call follows its call and its reasoning
    const types = second.body.input.map((i: any) => i.type ?? i.role)
    expect(types.indexOf('reasoning')).to.be.below(types.indexOf('function_call'))
    expect(types.indexOf('function_call')).to.be.below(types.indexOf('function_call_output'))
  })

  it('Moonshot: reasoning: auto learns the pass-back from the first 400, and status reads the top-level cached_tokens', async () => {
    h = await Harness.start({ model: { model: 'kimi-k2-thinking' }, trust: { owners: ['mock:bob'] } })
    const kimi = new MoonshotThinking()
    h.server.guard(kimi.guard)
    h.server.script(
      { reasoning: 'greet, then go on', toolCalls: [call('send_message', { messages: ['hi'], continue: true })], usage: moonshotUsage(510, { prompt_tokens: 1000 }) },
      { toolCalls: [call('finish', {})], usage: moonshotUsage(510, { prompt_tokens: 1000 }) },
    )
    const bob = h.client('bob')
    await bob.receive('hello')
    await h.until(() => h.server.pending() === 0, 'both replies')
    await h.settled()
    expect(kimi.refusals, 'one 400, then the step again with reasoning_content').to.have.length(1)
    const last = h.server.requests.at(-1)!.body.messages.find((m: any) => m.role === 'assistant')
    expect(last.reasoning_content).to.equal('greet, then go on')
    const [status] = await bob.receive('kotodama.status')
    expect(status).to.match(/main[\s\S]*2000 prompt tokens \(51% cached\)/)
  })
})
