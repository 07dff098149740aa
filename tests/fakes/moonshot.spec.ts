// Self-test of the Moonshot guard (issue 30): Kimi K2 thinking's reasoning pass-back rule and its
// older usage shape, on FakeOpenAI, through the real @ai-sdk/openai-compatible provider.
import { expect } from 'chai'
import { APICallError, generateText, stepCountIs, tool } from 'ai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { z } from 'zod'
import { FakeOpenAI, messagesOf } from '../support/fake-openai'
import { moonshot400, MoonshotThinking, moonshotUsage } from '../support/moonshot'

describe('fake-moonshot', () => {
  let fake: FakeOpenAI
  let kimi: MoonshotThinking
  beforeEach(async () => {
    fake = await FakeOpenAI.start()
    kimi = new MoonshotThinking()
    fake.guard(kimi.guard)
  })
  afterEach(async () => { await fake?.close() })

  const model = () => createOpenAICompatible({ name: 'moonshot', baseURL: fake.baseURL, apiKey: 'k' }).chatModel('kimi-k2-thinking')
  const lookup = tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => `found ${q}` })

  it('a thinking tool loop works: the SDK sends reasoning_content back with the tool call', async () => {
    fake.script({ reasoning: 'look it up', toolCalls: [{ name: 'lookup', arguments: { q: 'k' } }] }, { content: 'done' })
    const r = await generateText({ model: model(), system: 'be brief', prompt: 'k?', tools: { lookup }, stopWhen: stepCountIs(3), maxRetries: 0 })
    expect(r.text).to.equal('done')
    expect(messagesOf(fake.requests[1])[2]).to.deep.include({ role: 'assistant', reasoning_content: 'look it up' })
    expect(kimi.refusals).to.deep.equal([])
  })

  it('a tool-call message without reasoning_content is refused with Moonshot\'s words; "" passes', async () => {
    fake.script({ toolCalls: [{ name: 'lookup', arguments: { q: 'k' } }] }).fallback({ content: 'ok' })
    const e: any = await generateText({ model: model(), system: 'be brief', prompt: 'k?', tools: { lookup }, stopWhen: stepCountIs(3), maxRetries: 0 })
      .then((): unknown => undefined, (err: unknown) => err)
    expect(APICallError.isInstance(e)).to.equal(true)
    expect([e.statusCode, e.message]).to.deep.equal([400, moonshot400(2)])
    expect(JSON.parse(e.responseBody).error.type).to.equal('invalid_request_error')
    expect(kimi.refusals).to.deep.equal([1])

    const messages = [
      { role: 'user', content: 'k?' },
      { role: 'assistant', content: null as string | null, reasoning_content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'x' },
    ]
    const res = await fetch(`${fake.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'kimi-k2-thinking', messages }) })
    expect(res.status).to.equal(200)
  })

  it('older models\' top-level usage.cached_tokens: sent as such, and not read by the SDK (only the raw usage has it)', async () => {
    fake.script({ content: 'a', usage: moonshotUsage(1200, { prompt_tokens: 2000 }) }, { content: 'b', usage: { prompt_tokens: 2000, cached_tokens: 1200 } })
    const older = await generateText({ model: model(), prompt: 'x', maxRetries: 0 })
    expect(older.usage.inputTokenDetails.cacheReadTokens).to.equal(0)
    expect(older.usage.raw).to.deep.include({ prompt_tokens: 2000, cached_tokens: 1200 })
    const newer = await generateText({ model: model(), prompt: 'x', maxRetries: 0 })
    expect(newer.usage.inputTokenDetails.cacheReadTokens).to.equal(1200)
  })
})
