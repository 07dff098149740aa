// Self-test of FakeGemini (issue 30): the Gemini API imitated on 127.0.0.1, driven through the real
// @ai-sdk/google provider, and its rules: Gemini 3's thought signatures, SAFETY blocks, implicit caching;
// then Gemini's OpenAI-compatible endpoint (a guard on FakeOpenAI) through @ai-sdk/openai-compatible.
import { expect } from 'chai'
import { APICallError, generateText, type ModelMessage, stepCountIs, streamText, tool } from 'ai'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { z } from 'zod'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { CORRUPTED_SIGNATURE, FakeGemini, functionCallsOf, missingSignature, promptBlocks, SKIP_SIGNATURE } from '../support/fake-gemini'
import { FakeOpenAI, messagesOf } from '../support/fake-openai'
import { geminiOpenAIErrorBody, GeminiOpenAISignatures } from '../support/gemini-openai'

const G3 = 'gemini-3-pro-preview'

describe('fake-gemini', () => {
  let fake: FakeGemini
  beforeEach(async () => { fake = await FakeGemini.start() })
  afterEach(async () => { await fake?.close() })

  const model = (id = G3) => createGoogleGenerativeAI({ baseURL: fake.baseURL, apiKey: 'k' })(id)
  const lookup = (seen: unknown[] = []) => tool({
    description: 'look a word up',
    inputSchema: z.object({ q: z.string() }),
    execute: async (input) => { seen.push(input); return `found ${input.q}` },
  })

  /** POSTs a hand-built body to generateContent, as a client without the SDK would. */
  async function post(body: unknown, id = G3) {
    const res = await fetch(`${fake.baseURL}/models/${id}:generateContent`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': 'k' }, body: JSON.stringify(body),
    })
    return { status: res.status, json: await res.json() as any }
  }

  async function failure(p: Promise<unknown>): Promise<APICallError> {
    const e: unknown = await p.then((): unknown => undefined, (err: unknown) => err)
    expect(APICallError.isInstance(e), `expected an APICallError, got ${e}`).to.equal(true)
    return e as APICallError
  }

  describe('thought signatures (Gemini 3)', () => {
    it('a tool loop works: the SDK returns the signature it got with the call, from the tool call\'s providerMetadata', async () => {
      fake.script({ thought: 'I should look it up', toolCalls: [{ name: 'lookup', args: { q: 'kotodama' } }] }, { text: 'it means word-spirit' })
      const seen: unknown[] = []
      const tools = { lookup: lookup(seen) }
      const result = await generateText({ model: model(), prompt: 'what is kotodama?', tools, stopWhen: stepCountIs(3), maxRetries: 0 })

      expect(seen).to.deep.equal([{ q: 'kotodama' }])
      expect(result.text).to.equal('it means word-spirit')
      expect(fake.requests.map((r) => r.path)).to.deep.equal([`/v1beta/models/${G3}:generateContent`, `/v1beta/models/${G3}:generateContent`])
      const [signed] = fake.signatures
      expect(signed.call).to.deep.equal({ name: 'lookup', args: { q: 'kotodama' } })
      expect(result.steps[0].toolCalls[0].providerMetadata?.google?.thoughtSignature).to.equal(signed.signature)
      const [back] = functionCallsOf(fake.requests[1])
      expect(back).to.include({ name: 'lookup', thoughtSignature: signed.signature, position: 2 })
      // the text reply carries a signature on its last part, as Gemini 3 does
      expect(fake.signatures).to.have.length(2)
      expect(fake.signatures[1].call).to.equal(undefined)
    })

    it('streams the same loop over SSE (streamGenerateContent?alt=sse)', async () => {
      fake.script({ thought: 'thinking', toolCalls: [{ name: 'lookup', args: { q: 'a' } }] }, { text: 'streamed answer' })
      const s = streamText({ model: model(), prompt: 'look up a', tools: { lookup: lookup() }, stopWhen: stepCountIs(3), maxRetries: 0 })
      expect(await s.text).to.equal('streamed answer')
      expect((await s.steps).map((st) => st.finishReason)).to.deep.equal(['tool-calls', 'stop'])
      const sse = ['streamGenerateContent', 'alt=sse']
      expect(fake.requests.map((r) => [r.path.split(':')[1], r.query])).to.deep.equal([sse, sse])
      expect(functionCallsOf(fake.requests[1])[0].thoughtSignature).to.equal(fake.signatures[0].signature)
      expect((await s.steps)[0].reasoningText).to.equal('thinking')
    })

    it('a hand-built request without the signature gets Gemini\'s 400; one with a made-up signature is "corrupted"', async () => {
      fake.fallback({ text: 'never' })
      const contents = (sig?: string) => [
        { role: 'user', parts: [{ text: 'what is kotodama?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { q: 'kotodama' } }, ...(sig ? { thoughtSignature: sig } : {}) }] },
        { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { content: 'found' } } }] },
      ]
      const missing = await post({ contents: contents() })
      expect(missing.status).to.equal(400)
      expect(missing.json).to.deep.equal({ error: { code: 400, message: missingSignature('lookup', 2), status: 'INVALID_ARGUMENT' } })
      expect(missing.json.error.message).to.match(/^Function call is missing a thought_signature in functionCall parts\. /)
      expect((await post({ contents: contents('bm90IGEgc2lnbmF0dXJl') })).json.error.message).to.equal(CORRUPTED_SIGNATURE)
      expect(fake.pending(), 'refusals do not consume the script').to.equal(0)
      expect(fake.requests).to.have.length(2)
      // an earlier turn (before the last real user message) is not checked, nor is an older model
      const later = [...contents(), { role: 'model', parts: [{ text: 'ok' }] }, { role: 'user', parts: [{ text: 'thanks' }] }]
      expect((await post({ contents: later })).status).to.equal(200)
      expect((await post({ contents: contents() }, 'gemini-2.5-flash')).status).to.equal(200)
    })

    it('the SDK\'s sentinel for a lost signature is refused (refuseSentinel, the default) and accepted when it is off', async () => {
      // history restored without providerOptions: the signature is gone
      const messages: ModelMessage[] = [
        { role: 'user', content: 'what is kotodama?' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'lookup', input: { q: 'kotodama' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'lookup', output: { type: 'text', value: 'found' } }] },
      ]
      fake.fallback({ text: 'answer' })
      const quiet = (globalThis as any).AI_SDK_LOG_WARNINGS
      ;(globalThis as any).AI_SDK_LOG_WARNINGS = false   // the SDK's warning about the sentinel is expected here
      after(() => { (globalThis as any).AI_SDK_LOG_WARNINGS = quiet })
      const e = await failure(generateText({ model: model(), messages, tools: { lookup: lookup() }, maxRetries: 0 }))
      expect(e.statusCode).to.equal(400)
      expect(e.message).to.equal(missingSignature('lookup', 2))
      expect(functionCallsOf(fake.requests[0])[0].thoughtSignature, 'what @ai-sdk/google substituted').to.equal(SKIP_SIGNATURE)

      const lenient = await FakeGemini.start({ refuseSentinel: false })
      try {
        lenient.fallback({ text: 'answer' })
        const m = createGoogleGenerativeAI({ baseURL: lenient.baseURL, apiKey: 'k' })(G3)
        const r = await generateText({ model: m, messages, tools: { lookup: lookup() }, maxRetries: 0 })
        expect(r.text).to.equal('answer')
        expect(r.warnings?.map((w: any) => w.message).join('\n')).to.include('skip_thought_signature_validator')
      } finally {
        await lenient.close()
      }
    })

    it('parallel calls: only the first is signed (as Gemini 3 does), and the SDK sends the second back unsigned', async () => {
      fake.script({ toolCalls: [{ name: 'lookup', args: { q: 'a' } }, { name: 'lookup', args: { q: 'b' } }] }, { text: 'both' })
      const result = await generateText({ model: model(), prompt: 'a and b', tools: { lookup: lookup() }, stopWhen: stepCountIs(3), maxRetries: 0 })
      expect(result.text).to.equal('both')
      const calls = functionCallsOf(fake.requests[1])
      expect(calls.map((c) => c.thoughtSignature)).to.deep.equal([fake.signatures[0].signature, undefined])
    })

    it('with parallelSignatures "each" every call is signed and every one must come back', async () => {
      const each = await FakeGemini.start({ parallelSignatures: 'each' })
      try {
        each.script({ toolCalls: [{ name: 'lookup', args: { q: 'a' } }, { name: 'lookup', args: { q: 'b' } }] }).fallback({ text: 'never' })
        const first = await (await fetch(`${each.baseURL}/models/${G3}:generateContent`, {
          method: 'POST', body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'a and b' }] }] }),
        })).json() as any
        const parts = first.candidates[0].content.parts
        expect(parts.map((p: any) => typeof p.thoughtSignature)).to.deep.equal(['string', 'string'])
        const contents = [{ role: 'user', parts: [{ text: 'a and b' }] }, { role: 'model', parts: [parts[0], { functionCall: parts[1].functionCall }] }]
        const res = await fetch(`${each.baseURL}/models/${G3}:generateContent`, { method: 'POST', body: JSON.stringify({ contents }) })
        expect(res.status).to.equal(400)
        expect(((await res.json()) as any).error.message).to.equal(missingSignature('lookup', 2))
      } finally {
        await each.close()
      }
    })

    it('an older model (gemini-2.5-flash) gets no signatures and needs none', async () => {
      fake.script({ toolCalls: [{ name: 'lookup', args: { q: 'x' } }] }, { text: 'fine' })
      const result = await generateText({ model: model('gemini-2.5-flash'), prompt: 'x', tools: { lookup: lookup() }, stopWhen: stepCountIs(3), maxRetries: 0 })
      expect(result.text).to.equal('fine')
      expect(fake.signatures).to.deep.equal([])
      expect(functionCallsOf(fake.requests[1])[0].thoughtSignature).to.equal(undefined)
    })
  })

  describe('safety blocks', () => {
    it('a blocked answer is finishReason SAFETY with no content, which the SDK reports as content-filter', async () => {
      fake.script({ blocked: true })
      const result = await generateText({ model: model(), prompt: 'something bad', maxRetries: 0 })
      expect(result.finishReason).to.equal('content-filter')
      expect(result.text).to.equal('')
      expect(result.response.body).to.deep.include({ candidates: [{ finishReason: 'SAFETY', index: 0, safetyRatings: [
        { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true },
      ] }] })
    })

    it('a blocked prompt has no candidates, only promptFeedback.blockReason; streamed too', async () => {
      fake.script({ blockReason: 'SAFETY' }, { blockReason: 'PROHIBITED_CONTENT' })
      const result = await generateText({ model: model(), prompt: 'something worse', maxRetries: 0 })
      expect(result.finishReason).to.equal('content-filter')
      expect(result.providerMetadata?.google?.promptFeedback).to.deep.equal({ blockReason: 'SAFETY', safetyRatings: [] })
      const s = streamText({ model: model(), prompt: 'again', maxRetries: 0 })
      expect(await s.finishReason).to.equal('content-filter')
      expect(await s.text).to.equal('')
    })
  })

  describe('implicit caching', () => {
    const system = 'You are kotodama. '.repeat(300)   // 5,400 characters: about 1,350 tokens of prefix

    it('a repeated long prefix reports cachedContentTokenCount, read by the SDK as inputTokens.cacheRead', async () => {
      fake.fallback({ text: 'ok' })
      const first = await generateText({ model: model(), system, prompt: 'hello', maxRetries: 0 })
      const second = await generateText({ model: model(), system, prompt: 'hello again', maxRetries: 0 })
      expect(first.usage.inputTokenDetails.cacheReadTokens).to.equal(0)
      // the shared prefix is the system instruction and the (absent) tools; the user content differs
      const [sys, tools] = promptBlocks(fake.requests[1].body)
      const expected = Math.ceil((sys.length + tools.length) / 4)
      expect(expected).to.be.greaterThan(1024)
      expect(second.usage.inputTokenDetails.cacheReadTokens).to.equal(expected)
      expect((second.usage.raw as any).cachedContentTokenCount).to.equal(expected)
      expect(second.usage.inputTokens).to.equal(Math.ceil(promptBlocks(fake.requests[1].body).join('').length / 4))
    })

    it('a short prefix, another model or a changed system instruction reads nothing from the cache', async () => {
      fake.fallback({ text: 'ok' })
      await generateText({ model: model(), system: 'short', prompt: 'hello', maxRetries: 0 })
      const short = await generateText({ model: model(), system: 'short', prompt: 'hello', maxRetries: 0 })
      expect(short.usage.inputTokenDetails.cacheReadTokens, 'under minCacheTokens').to.equal(0)
      await generateText({ model: model(), system, prompt: 'hello', maxRetries: 0 })
      const other = await generateText({ model: model('gemini-2.5-flash'), system, prompt: 'hello', maxRetries: 0 })
      expect(other.usage.inputTokenDetails.cacheReadTokens, 'caches are per model').to.equal(0)
      const changed = await generateText({ model: model(), system: `${system}!`, prompt: 'hello', maxRetries: 0 })
      expect(changed.usage.inputTokenDetails.cacheReadTokens, 'the system instruction comes first').to.equal(0)
    })
  })

  it('errors come in Gemini\'s shape, which the SDK reads', async () => {
    fake.script({ status: 429, error: 'Resource has been exhausted (e.g. check quota).' })
    const e = await failure(generateText({ model: model(), prompt: 'x', maxRetries: 0 }))
    expect(e.statusCode).to.equal(429)
    expect(e.message).to.equal('Resource has been exhausted (e.g. check quota).')
    expect(JSON.parse(e.responseBody!).error).to.deep.equal({ code: 429, message: e.message, status: 'RESOURCE_EXHAUSTED' })
    expect((await post({ contents: [] })).json.error.message).to.include('contents is not specified')
  })
})

describe('Gemini\'s OpenAI-compatible endpoint (GeminiOpenAISignatures on FakeOpenAI)', () => {
  let fake: FakeOpenAI
  let g: GeminiOpenAISignatures
  beforeEach(async () => {
    fake = await FakeOpenAI.start()
    g = new GeminiOpenAISignatures()
    fake.guard(g.guard)
  })
  afterEach(async () => { await fake?.close() })

  const lookup = tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => `found ${q}` })
  const compatible = (name: string) => createOpenAICompatible({ name, baseURL: fake.baseURL, apiKey: 'k' }).chatModel(G3)

  it('named "google", @ai-sdk/openai-compatible keeps the signature and sends it back as extra_content.google', async () => {
    fake.script(g.reply({ toolCalls: [{ name: 'lookup', arguments: { q: 'a' } }] }), { content: 'done' })
    const result = await generateText({ model: compatible('google'), prompt: 'a?', tools: { lookup }, stopWhen: stepCountIs(3), maxRetries: 0 })
    expect(result.text).to.equal('done')
    const [[id, signature]] = [...g.issued]
    expect(result.steps[0].toolCalls[0].providerMetadata).to.deep.equal({ google: { thoughtSignature: signature } })
    const back = messagesOf(fake.requests[1]).find((m) => m.role === 'assistant').tool_calls[0]
    expect(back).to.deep.include({ id, extra_content: { google: { thought_signature: signature } } })
    expect(g.refusals).to.deep.equal([])
  })

  it('streamed, the signature arrives on the tool call\'s first delta and goes back the same way', async () => {
    fake.script(g.reply({ toolCalls: [{ name: 'lookup', arguments: { q: 'b' } }] }), { content: 'streamed' })
    const s = streamText({ model: compatible('google'), prompt: 'b?', tools: { lookup }, stopWhen: stepCountIs(3), maxRetries: 0 })
    expect(await s.text).to.equal('streamed')
    const [signature] = g.issued.values()
    const back = messagesOf(fake.requests[1]).find((m) => m.role === 'assistant').tool_calls[0]
    expect(back.extra_content).to.deep.equal({ google: { thought_signature: signature } })
  })

  it('named anything else (here "kotodama"), the SDK stores the signature under that name but writes back only "google": lost, 400', async () => {
    fake.script(g.reply({ toolCalls: [{ name: 'lookup', arguments: { q: 'a' } }] }), { content: 'never' })
    const steps: any[] = []
    const e = await generateText({
      model: compatible('kotodama'), prompt: 'a?', tools: { lookup }, stopWhen: stepCountIs(3), maxRetries: 0, onStepFinish: (s) => { steps.push(s) },
    }).then((): any => undefined, (err: any) => err)
    const [signature] = g.issued.values()
    expect(steps[0].toolCalls[0].providerMetadata, 'stored under the provider\'s name').to.deep.equal({ kotodama: { thoughtSignature: signature } })
    const back = messagesOf(fake.requests[1]).find((m) => m.role === 'assistant').tool_calls[0]
    expect(back.extra_content, 'and not sent back: the bug kotodama must fix').to.equal(undefined)
    expect(g.refusals).to.deep.equal([1])
    expect(APICallError.isInstance(e)).to.equal(true)
    expect(e.statusCode).to.equal(400)
    // the array body does not fit the SDK's error schema: the message is only the HTTP status text
    expect(JSON.parse(e.responseBody)).to.deep.equal(geminiOpenAIErrorBody(missingSignature('lookup', 2)))
    expect(e.message).to.equal('Bad Request')
    expect(fake.pending(), 'the refused step did not consume its reply').to.equal(1)
  })

  it('refuses a made-up signature and the sentinel; accepts the sentinel with refuseSentinel off', async () => {
    fake.fallback({ content: 'ok' })
    const post = async (sig: string | undefined, guard = g) => {
      const extra = sig ? { extra_content: { google: { thought_signature: sig } } } : {}
      const tc = { id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{}' }, ...extra }
      const messages = [
        { role: 'user', content: 'a?' },
        { role: 'assistant', content: null as string | null, tool_calls: [tc] },
        { role: 'tool', tool_call_id: 'c1', content: 'x' },
      ]
      const res = await fetch(`${fake.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: G3, messages }) })
      return { status: res.status, body: await res.json() as any }
    }
    expect(await post(undefined)).to.deep.equal({ status: 400, body: geminiOpenAIErrorBody(missingSignature('lookup', 2)) })
    expect((await post('Zm9v')).body[0].error.message).to.equal(CORRUPTED_SIGNATURE)
    expect((await post(SKIP_SIGNATURE)).status).to.equal(400)
    fake.reset()
    fake.fallback({ content: 'ok' }).guard(new GeminiOpenAISignatures({ refuseSentinel: false }).guard)
    expect((await post(SKIP_SIGNATURE)).status).to.equal(200)
  })
})
