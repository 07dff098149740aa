// Self-test of FakeOpenAI.responses() (issue 30): OpenAI's Responses API imitated on 127.0.0.1, driven
// through @ai-sdk/openai's responses model, and its rules for stateless reasoning (store: false).
import { expect } from 'chai'
import { APICallError, generateText, type ModelMessage, stepCountIs, streamText, tool } from 'ai'
import { createOpenAI } from '@ai-sdk/openai'
import { z } from 'zod'
import { FakeOpenAI, functionCallOutputsOf, inputOf, reasoningInputOf } from '../support/fake-openai'
import { itemNotFound, noToolCall, reasoningRequired, unverifiedEncryptedContent } from '../support/fakes/wire/openai-responses'

const stateless = { openai: { store: false, include: ['reasoning.encrypted_content'] } }

describe('fake-responses', () => {
  let fake: FakeOpenAI
  beforeEach(async () => { fake = await FakeOpenAI.start() })
  afterEach(async () => { await fake?.close() })

  const model = (id = 'gpt-5') => createOpenAI({ baseURL: fake.baseURL, apiKey: 'k' }).responses(id)
  const lookup = tool({ description: 'look a word up', inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => `found ${q}` })

  async function failure(p: Promise<unknown>): Promise<APICallError> {
    const e: unknown = await p.then((): unknown => undefined, (err: unknown) => err)
    expect(APICallError.isInstance(e), `expected an APICallError, got ${e}`).to.equal(true)
    return e as APICallError
  }

  async function post(body: unknown) {
    const res = await fetch(`${fake.baseURL}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return { status: res.status, json: await res.json() as any }
  }

  it('a tool loop with reasoning works statelessly: the encrypted reasoning goes back ahead of its call', async () => {
    fake.responses().script({ reasoning: 'I should look it up', toolCalls: [{ name: 'lookup', arguments: { q: 'kotodama' } }] }, { text: 'word-spirit' })
    const result = await generateText({
      model: model(), prompt: 'what is kotodama?', tools: { lookup }, stopWhen: stepCountIs(3), providerOptions: stateless, maxRetries: 0,
    })

    expect(result.text).to.equal('word-spirit')
    const [first, second] = fake.responses().requests
    expect(first.path).to.equal('/v1/responses')
    expect(first.body).to.deep.include({ model: 'gpt-5', store: false, include: ['reasoning.encrypted_content'] })
    const [issued] = fake.issuedReasoning
    expect(issued).to.deep.include({ id: 'rs_fake_1', summary: 'I should look it up', callIds: ['call_fake_1'], store: false })
    expect(issued.encrypted_content).to.match(/^gAAAAB/)
    const kept = (result.steps[0].reasoning[0] as any).providerMetadata?.openai
    expect(kept).to.deep.equal({ itemId: 'rs_fake_1', reasoningEncryptedContent: issued.encrypted_content })
    // what @ai-sdk/openai sends back with store: false: the reasoning item whole (with its id), the call without its fc_ id
    expect(reasoningInputOf(second)).to.deep.equal([{ id: 'rs_fake_1', encrypted_content: issued.encrypted_content }])
    expect(inputOf(second).map((i) => i.type ?? i.role)).to.deep.equal(['user', 'reasoning', 'function_call', 'function_call_output'])
    expect(inputOf(second)[2]).to.deep.equal({ type: 'function_call', call_id: 'call_fake_1', name: 'lookup', arguments: '{"q":"kotodama"}' })
    expect(functionCallOutputsOf(second)).to.deep.equal([{ call_id: 'call_fake_1', output: 'found kotodama' }])
  })

  it('streams the same loop (response.created … response.completed) and still sends the reasoning back', async () => {
    fake.responses().script({ reasoning: 'streamed thought', toolCalls: [{ name: 'lookup', arguments: { q: 'a' } }] }, { text: 'streamed answer' })
    const s = streamText({ model: model(), prompt: 'a?', tools: { lookup }, stopWhen: stepCountIs(3), providerOptions: stateless, maxRetries: 0 })
    expect(await s.text).to.equal('streamed answer')
    expect(await s.finishReason, 'every event parsed: no error part').to.equal('stop')
    expect((await s.steps).map((st) => st.finishReason)).to.deep.equal(['tool-calls', 'stop'])
    expect((await s.steps)[0].reasoningText).to.equal('streamed thought')
    expect(reasoningInputOf(fake.responses().requests[1])).to.deep.equal([{ id: 'rs_fake_1', encrypted_content: fake.issuedReasoning[0].encrypted_content }])
  })

  it('dropping the reasoning from the history is refused: reasoning items must accompany their function calls when store is false', async () => {
    fake.responses().script({ reasoning: 'think first', toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] }).fallback({ text: 'never' })
    const step = await generateText({ model: model(), prompt: 'x?', tools: { lookup }, providerOptions: stateless, maxRetries: 0 })
    // the history as a store that kept only text and tool parts would restore it
    const history: ModelMessage[] = step.response.messages.map((m) => m.role !== 'assistant' || typeof m.content === 'string' ? m
      : { ...m, content: m.content.filter((p) => p.type !== 'reasoning') })
    const messages: ModelMessage[] = [{ role: 'user', content: 'x?' }, ...history]
    const e = await failure(generateText({ model: model(), messages, tools: { lookup }, providerOptions: stateless, maxRetries: 0 }))
    expect(e.statusCode).to.equal(400)
    expect(e.message).to.equal(reasoningRequired('call_fake_1', 'rs_fake_1'))
    expect(reasoningInputOf(fake.responses().requests[1])).to.deep.equal([])
    expect(fake.responses().pending(), 'the refusal does not consume the script').to.equal(0)
  })

  it('nothing is stored with store: false, so an id-only reference is 404 "Item with id … not found"', async () => {
    fake.responses().fallback({ reasoning: 'r', toolCalls: [{ name: 'lookup', arguments: {} }] })
    const made = await post({ model: 'gpt-5', input: 'hi', store: false, include: ['reasoning.encrypted_content'] })
    const [rs, fc] = made.json.output
    const reference = await post({ model: 'gpt-5', input: [{ role: 'user', content: 'hi' }, { type: 'item_reference', id: rs.id }], store: false })
    expect(reference.status).to.equal(404)
    expect(reference.json).to.deep.equal({ error: { message: itemNotFound(rs.id), type: 'invalid_request_error', param: null, code: null } })
    // a reasoning item carrying its id but not its encrypted content is a lookup too
    const bareInput = [{ role: 'user', content: 'hi' }, { type: 'reasoning', id: rs.id, summary: rs.summary }, fc]
    const bare = await post({ model: 'gpt-5', input: bareInput, store: false })
    expect([bare.status, bare.json.error.message]).to.deep.equal([404, itemNotFound(rs.id)])
    const forged = { type: 'reasoning', id: rs.id, summary: [] as unknown[], encrypted_content: `${rs.encrypted_content}x` }
    const tampered = await post({ model: 'gpt-5', input: [forged], store: false })
    expect(tampered.status).to.equal(400)
    expect(tampered.json.error).to.deep.include({ message: unverifiedEncryptedContent(rs.id), code: 'invalid_encrypted_content' })
  })

  it('with store left on, the SDK sends the reasoning as an item_reference, which the fake has kept', async () => {
    fake.responses().script({ reasoning: 'stored thought', toolCalls: [{ name: 'lookup', arguments: { q: 's' } }] }, { text: 'stored answer' })
    const result = await generateText({ model: model(), prompt: 's?', tools: { lookup }, stopWhen: stepCountIs(3), maxRetries: 0 })
    expect(result.text).to.equal('stored answer')
    const second = fake.responses().requests[1]
    expect(second.body.store, 'the SDK leaves store out: the API defaults it to true').to.equal(undefined)
    // the call itself goes whole and without its fc_ id
    expect(inputOf(second).slice(1, 3)).to.deep.equal([
      { type: 'item_reference', id: 'rs_fake_1' }, { type: 'function_call', call_id: 'call_fake_1', name: 'lookup', arguments: '{"q":"s"}' },
    ])
  })

  it('for a reasoning model, store: false alone makes the SDK ask for the encrypted reasoning; a chat model gets no include', async () => {
    fake.responses().fallback({ text: 'ok' })
    await generateText({ model: model(), prompt: 'x', providerOptions: { openai: { store: false } }, maxRetries: 0 })
    await generateText({ model: model('gpt-4.1'), prompt: 'x', providerOptions: { openai: { store: false } }, maxRetries: 0 })
    expect(fake.responses().requests.map((r) => r.body.include)).to.deep.equal([['reasoning.encrypted_content'], undefined])
  })

  it('a function_call_output must answer a function_call of the input', async () => {
    fake.responses().fallback({ text: 'never' })
    const orphan = await post({ model: 'gpt-5', input: [{ type: 'function_call_output', call_id: 'call_nowhere', output: 'x' }] })
    expect([orphan.status, orphan.json.error.message]).to.deep.equal([400, noToolCall('call_nowhere')])
    const fine = await post({ model: 'gpt-5', input: [
      { type: 'function_call', call_id: 'c1', name: 'lookup', arguments: '{}' }, { type: 'function_call_output', call_id: 'c1', output: 'x' },
    ] })
    expect(fine.status).to.equal(200)
  })

  it('usage: cached and reasoning tokens reach the SDK; errors come in OpenAI\'s shape', async () => {
    fake.responses().script(
      { text: 'ok', usage: { input_tokens: 2000, cached_tokens: 1536, output_tokens: 50, reasoning_tokens: 30 } },
      { status: 429, error: 'Rate limit reached', errorCode: 'rate_limit_exceeded' },
    )
    const r = await generateText({ model: model(), prompt: 'x', maxRetries: 0 })
    expect(r.usage).to.deep.include({ inputTokens: 2000, outputTokens: 50, reasoningTokens: 30 })
    expect(r.usage.inputTokenDetails).to.deep.equal({ noCacheTokens: 464, cacheReadTokens: 1536, cacheWriteTokens: undefined })
    const e = await failure(generateText({ model: model(), prompt: 'x', maxRetries: 0 }))
    expect([e.statusCode, e.message]).to.deep.equal([429, 'Rate limit reached'])
  })
})
