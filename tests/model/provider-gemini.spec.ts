// kotodama on Gemini (SPEC §11.1), both ways owners reach it: the Gemini API through the real
// @ai-sdk/google and tests/support/fake-gemini.ts, and Gemini's OpenAI-compatible endpoint through
// the openai-compatible provider and the guard of tests/support/gemini-openai.ts. Both follow
// Gemini's "Thought signatures": each function call of the current turn must come back with the
// signature it came with (HTTP 400 "Function call is missing a thought_signature" otherwise).
import { expect } from 'chai'
import { FakeGemini } from '../support/fake-gemini'
import { GeminiOpenAISignatures, geminiOpenAIErrorBody } from '../support/gemini-openai'
import { call, Harness } from '../support/harness'

const G3 = 'gemini-3-pro-preview'

describe('providers: Gemini', function () {
  this.timeout(20000)
  let h: Harness
  let fake: FakeGemini | undefined
  afterEach(async () => { await h?.stop(); await fake?.close(); fake = undefined })

  const gemini = (f: FakeGemini, o: Record<string, unknown> = {}) => ({
    id: 'gemini', provider: 'google', baseURL: f.baseURL, apiKey: 'g-key', model: G3, maxRetries: 0, timeoutMs: 10000, ...o,
  })

  it('the Gemini API: a tool loop returns each call\'s thought signature, and implicit caching is counted', async () => {
    fake = await FakeGemini.start({ minCacheTokens: 256 })
    h = await Harness.start({ extraModels: [gemini(fake)], profile: { model: 'gemini' } })
    fake.script({ toolCalls: [{ name: 'send_message', args: { messages: ['hi'], continue: true } }] }, { toolCalls: [{ name: 'send_message', args: { messages: ['bye'] } }] })
    await h.client('bob').receive('hello')
    await h.until(() => h.sent.length === 2, 'two messages')
    await h.settled()
    expect(fake.requests).to.have.length(2)
    const back = fake.requests[1].body.contents.flatMap((c: any) => c.parts).find((p: any) => p.functionCall)
    expect(back.thoughtSignature).to.equal(fake.signatures[0].signature)
    const usage = (await h.app.kotodama.list())[0].usage.snapshot().find(u => u.model === 'gemini')!
    expect(usage.total.cachedTokens, 'the second request repeated the first one\'s prefix').to.be.above(0)
  })

  it('an answer blocked by the safety filter ends the turn with a clear warning; nothing is sent', async () => {
    fake = await FakeGemini.start()
    h = await Harness.start({ extraModels: [gemini(fake)], profile: { model: 'gemini' } })
    fake.script({ blocked: true })
    await h.client('bob').receive('hello')
    await h.until(() => h.logs.some(l => /blocked by the provider's safety filter \(finish reason SAFETY\)/.test(l.text)), 'the warning')
    await h.settled()
    expect(h.sent).to.have.length(0)
  })

  it('Gemini\'s OpenAI endpoint: the signature kept under our provider\'s name goes back as extra_content.google', async () => {
    h = await Harness.start({ model: { model: G3 } })
    const g = new GeminiOpenAISignatures()
    h.server.guard(g.guard)
    h.server.script(g.reply({ toolCalls: [call('send_message', { messages: ['hi'], continue: true })] }), { toolCalls: [call('finish', {})] })
    await h.client('bob').receive('hello')
    await h.until(() => h.server.requests.length === 2, 'two requests')
    await h.settled()
    expect(g.refusals).to.deep.equal([])
    const assistant = h.server.requests[1].body.messages.find((m: any) => m.role === 'assistant')
    expect(assistant.tool_calls[0].extra_content).to.deep.equal({ google: { thought_signature: [...g.issued.values()][0] } })
  })

  it('Gemini\'s OpenAI endpoint: its error body (a JSON array) is read, so the log has the server\'s words', async () => {
    h = await Harness.start({ model: { model: G3 } })
    h.server.script({ status: 400, body: geminiOpenAIErrorBody('API key not valid. Please pass a valid API key.') })
    await h.client('bob').receive('hello')
    await h.until(() => h.logs.some(l => l.text.includes('HTTP 400: API key not valid')), 'the server\'s words in the log')
  })
})
