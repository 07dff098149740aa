// kotodama on Anthropic's Messages API (SPEC §11.1) through the real @ai-sdk/anthropic and the fake
// of tests/support/fake-anthropic.ts, which follows Anthropic's "Prompt caching" (breakpoints, at
// most 4, a 20-block look back, reads only of prefixes written before) and "Extended thinking"
// (a tool-use turn must come back with its signed thinking block).
import { expect } from 'chai'
import { FakeAnthropic, toolResultsOf as anthropicResults } from '../support/fake-anthropic'
import { call, Harness } from '../support/harness'

const claude = (fake: FakeAnthropic, o: Record<string, unknown> = {}) => ({
  id: 'claude', provider: 'anthropic', baseURL: fake.baseURL, apiKey: 'sk-ant', model: 'claude-sonnet-4-5', maxRetries: 0, timeoutMs: 10000,
  price: { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 }, ...o,
})
const breakpoints = (body: any) => JSON.stringify(body).split('"cache_control"').length - 1
const send = (text: string, more = false) => ({ toolCalls: [{ name: 'send_message', input: { messages: [text], ...more ? { continue: true } : {} } }] })

describe('providers: Anthropic', function () {
  this.timeout(20000)
  let h: Harness
  let fake: FakeAnthropic
  afterEach(async () => { await h?.stop(); await fake?.close() })

  it('places breakpoints so each request reads the one before from the cache; status shows reads and writes', async () => {
    fake = await FakeAnthropic.start({ minCacheTokens: 256 })
    h = await Harness.start({ extraModels: [claude(fake)], profile: { model: 'claude' }, trust: { owners: ['mock:bob'] } })
    fake.fallback(send('ok'))
    const bob = h.client('bob')
    for (const text of ['hello', 'how are you', 'tell me a joke', 'another one']) {
      await bob.receive(text)
      await h.until(() => fake.requests.length >= h.sent.length && h.sent.length > 0, 'a reply')
      await h.settled()
    }
    const reqs = fake.requests
    expect(reqs.length).to.be.at.least(4)
    for (const r of reqs) expect(breakpoints(r.body)).to.be.within(2, 4)
    // the system block carries one; the last message another
    expect(JSON.stringify(reqs[0].body.system)).to.include('cache_control')
    const usage = (await h.app.kotodama.list())[0].usage.snapshot().find(u => u.model === 'claude')!
    expect(usage.total.cachedTokens, 'later requests read the cache').to.be.above(0)
    expect(usage.total.cacheWriteTokens, 'and wrote to it').to.be.above(0)
    // most of the prompt of the later requests came from the cache
    expect(usage.total.cachedTokens / usage.total.promptTokens).to.be.above(0.5)
    const [status] = await bob.receive('kotodama.status')
    expect(status).to.match(/claude[\s\S]*\d+ prompt tokens \(\d+% cached\).*, \d+ prompt tokens written to the cache/)
  })

  it('a stable prefix under the model\'s minimum cacheable length is told once, in the log', async () => {
    fake = await FakeAnthropic.start({ minCacheTokens: 4096 })
    h = await Harness.start({ extraModels: [claude(fake, { model: 'claude-opus-4-5' })], profile: { model: 'claude' } })
    fake.fallback(send('ok'))
    await h.client('bob').receive('hello')
    await h.until(() => h.sent.length === 1, 'a reply')
    await h.settled()
    await h.client('bob').receive('again')
    await h.until(() => h.sent.length === 2, 'a second reply')
    const told = h.logs.filter(l => /model claude: the stable prefix .* is under claude-opus-4-5's minimum of 4096/.test(l.text))
    expect(told).to.have.length(1)
  })

  it('an answer with a block type the SDK does not know ends the turn with a clear warning; nothing is stored half-done', async () => {
    fake = await FakeAnthropic.start()
    h = await Harness.start({ extraModels: [claude(fake)], profile: { model: 'claude' } })
    fake.script({ text: 'hi', unknownBlock: 'server_magic' })
    await h.client('bob').receive('hello')
    await h.until(() => h.logs.some(l => /the call to model "claude" failed, the turn ends: .*Invalid JSON response/.test(l.text)), 'the warning')
    await h.settled()
    expect(h.sent).to.have.length(0)
    const [runtime] = await h.app.kotodama.list()
    const conv = await runtime.conversation('private:bob')
    expect(conv.entries.filter(e => e.type === 'step')).to.have.length(0)
    expect(conv.entries.filter(e => e.type === 'failure')).to.have.length(1)
  })

  it('a tool loop with extended thinking returns each signed thinking block (the fake refuses it missing)', async () => {
    fake = await FakeAnthropic.start({ thinkingRule: 'every' })
    h = await Harness.start({ extraModels: [claude(fake, { thinkingBudget: 2048 })], profile: { model: 'claude' } })
    fake.script({ thinking: 'Bob greets me; I answer and keep going.', ...send('hi Bob', true) }, { thinking: 'Done now.', ...send('bye', false) })
    await h.client('bob').receive('hello')
    await h.until(() => h.sent.length === 2, 'two messages')
    await h.settled()
    expect(fake.requests).to.have.length(2)
    expect(fake.requests[0].body.thinking).to.deep.equal({ type: 'enabled', budget_tokens: 2048 })
    const assistant = fake.requests[1].body.messages.find((m: any) => m.role === 'assistant')
    expect(assistant.content[0]).to.include({ type: 'thinking', thinking: 'Bob greets me; I answer and keep going.' })
    expect(assistant.content[0].signature).to.equal(fake.signature('Bob greets me; I answer and keep going.'))
    expect(anthropicResults(fake.requests[1])).to.have.length(1)
  })

  it('a 529 fails over to the OpenAI-compatible model and back within a turn; each reads one history without the other\'s reasoning', async () => {
    // Anthropic's own rule: the current tool-use turn must keep its thinking, earlier turns need not
    fake = await FakeAnthropic.start()
    h = await Harness.start({ extraModels: [claude(fake, { thinkingBudget: 2048, fallback: ['main'] })], profile: { model: 'claude' } })
    fake.script({ thinking: 'A first thought.', ...send('one', true) }, { status: 529, error: 'Overloaded' }, send('three'))
    h.server.script({ reasoning: 'deepseek thinks here', toolCalls: [call('send_message', { messages: ['two'], continue: true })], delayMs: 300 })
    await h.client('bob').receive('hello')
    await h.server.waitForRequests(1)
    // Claude is back before the next step
    const [runtime] = await h.app.kotodama.list()
    runtime.calls.health.succeeded('claude')
    await h.until(() => h.sent.length === 3, 'three messages')
    await h.settled()
    expect(h.sent.map(s => s.content)).to.deep.equal(['one', 'two', 'three'])
    // the fallback read Claude's step without its signed thinking
    const compatible = JSON.stringify(h.server.requests[0].body.messages)
    expect(compatible).to.not.include('A first thought.')
    expect(compatible).to.include('one')
    // back on Claude: DeepSeek's step has no thinking, so this request may not think (Anthropic refuses a loop that toggles it)
    const back = fake.requests.at(-1)!.body
    expect(back.thinking).to.equal(undefined)
    expect(JSON.stringify(back.messages)).to.not.include('deepseek thinks here')
    expect(back.messages.some((m: any) => m.role === 'assistant' && JSON.stringify(m).includes('"two"'))).to.equal(true)
    // the next turn thinks again
    fake.script(send('four'))
    await h.client('bob').receive('and now?')
    await h.until(() => h.sent.length === 4, 'a fourth message')
    expect(fake.requests.at(-1)!.body.thinking).to.deep.equal({ type: 'enabled', budget_tokens: 2048 })
  })
})
