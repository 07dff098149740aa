// Self-test of FakeAnthropic (an imitation of Anthropic's Messages API) driven through the real
// @ai-sdk/anthropic and `ai` over HTTP: round trips, the prompt cache's accounting, the rules it
// enforces (breakpoints, thinking signatures, tool pairing, block types) and its errors.
import { expect } from 'chai'
import { APICallError, generateText, ModelMessage, stepCountIs, streamText, tool } from 'ai'
import { createAnthropic } from '@ai-sdk/anthropic'
import { z } from 'zod'
import { blockTokens, estimateTokens, FakeAnthropic, messagesOf, toolResultsOf } from '../support/fake-anthropic'

const MODEL = 'claude-sonnet-4-5'
const EPHEMERAL = { anthropic: { cacheControl: { type: 'ephemeral' } } }
const THINKING = { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } }
// 4400 characters: 1100 tokens by the fake's estimate, over the 1024 minimum
const SYSTEM = 'You are a careful assistant. '.repeat(152).slice(0, 4400)

describe('fake-anthropic', () => {
  let fake: FakeAnthropic

  beforeEach(async () => {
    fake = await FakeAnthropic.start()
  })

  afterEach(async () => {
    await fake.close()
  })

  const model = () => createAnthropic({ baseURL: fake.baseURL, apiKey: 'k' })(MODEL)

  /** A hand-built request, for what the SDK would never send. */
  async function post(body: Record<string, unknown>): Promise<{ status: number; json: any }> {
    const res = await fetch(`${fake.baseURL}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: MODEL, max_tokens: 2048, ...body }),
    })
    return { status: res.status, json: await res.json() }
  }

  function weatherTool(seen: unknown[]) {
    return tool({
      description: 'the weather in a city',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        seen.push(city)
        return `sunny in ${city}`
      },
    })
  }

  it('answers text and records the request as Anthropic receives it', async () => {
    fake.script({ text: 'hello there' })
    const result = await generateText({ model: model(), system: 'be brief', prompt: 'hi', maxRetries: 0 })
    expect(result.text).to.equal('hello there')
    expect(result.finishReason).to.equal('stop')
    const [req] = fake.requests
    expect(req.path).to.equal('/v1/messages')
    expect(req.headers['x-api-key']).to.equal('k')
    expect(req.headers['anthropic-version']).to.equal('2023-06-01')
    expect(req.body).to.deep.include({ model: MODEL, system: [{ type: 'text', text: 'be brief' }] })
    expect(req.body.max_tokens).to.be.a('number')
    expect(messagesOf(req)).to.deep.equal([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }])
    // no breakpoint: everything is plain input
    expect(result.usage.inputTokens).to.equal(estimateTokens('be brief') + estimateTokens('hi'))
    expect(result.usage.inputTokenDetails).to.deep.include({ cacheReadTokens: 0, cacheWriteTokens: 0 })
    expect(result.usage.outputTokens).to.equal(estimateTokens('hello there'))
  })

  it('runs a tool loop (generate): tool_use out, tool_result back with its id', async () => {
    fake.script({ toolCalls: [{ name: 'weather', input: { city: 'Oslo' }, id: 'toolu_1' }] }, { text: 'It is sunny.' })
    const seen: unknown[] = []
    const result = await generateText({
      model: model(), prompt: 'weather in Oslo?', tools: { weather: weatherTool(seen) }, stopWhen: stepCountIs(2), maxRetries: 0,
    })
    expect(seen).to.deep.equal(['Oslo'])
    expect(result.text).to.equal('It is sunny.')
    expect(result.steps[0].finishReason).to.equal('tool-calls')
    const [first, second] = fake.requests
    expect(first.body.tools[0]).to.deep.include({ name: 'weather', description: 'the weather in a city' })
    expect(messagesOf(second)[1]).to.deep.equal({ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } }] })
    expect(toolResultsOf(second)).to.deep.equal([{ tool_use_id: 'toolu_1', content: 'sunny in Oslo' }])
  })

  it('streams text and a tool loop with named events', async () => {
    fake.script({ text: 'Let me look.', toolCalls: [{ name: 'weather', input: { city: 'Rome' } }] }, { text: 'Warm in Rome.' })
    const seen: unknown[] = []
    const result = streamText({ model: model(), prompt: 'Rome?', tools: { weather: weatherTool(seen) }, stopWhen: stepCountIs(2), maxRetries: 0 })
    const deltas: string[] = []
    for await (const part of result.fullStream) if (part.type === 'text-delta') deltas.push(part.text)
    expect(deltas).to.deep.equal(['Let me', ' look.', 'Warm in', ' Rome.'])
    expect(seen).to.deep.equal(['Rome'])
    expect(await result.text).to.equal('Warm in Rome.')
    const [first, second] = fake.requests
    expect(first.body.stream).to.equal(true)
    expect(toolResultsOf(second)).to.deep.equal([{ tool_use_id: 'toolu_fake_1', content: 'sunny in Rome' }])
    expect((await result.usage).outputTokens).to.be.greaterThan(0)
  })

  describe('prompt caching', () => {
    const sys = (text = SYSTEM): ModelMessage => ({ role: 'system', content: text, providerOptions: EPHEMERAL })
    const user = (text: string, cached = false): ModelMessage => ({ role: 'user', content: text, ...(cached ? { providerOptions: EPHEMERAL } : {}) })
    const ask = (messages: ModelMessage[]) => generateText({ model: model(), messages, allowSystemInMessages: true, maxRetries: 0 })

    it('writes the prefix up to the last breakpoint, then reads it back when the next request repeats it', async () => {
      fake.fallback({ text: 'ok' })
      const one = await ask([sys(), user('hello', true)])
      expect(fake.requests[0].body.system[0].cache_control).to.deep.equal({ type: 'ephemeral' })
      expect(messagesOf(fake.requests[0])[0].content[0].cache_control).to.deep.equal({ type: 'ephemeral' })
      expect(one.usage.inputTokenDetails).to.deep.equal({ noCacheTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 1100 + 2 })

      // the earlier last breakpoint ('hello') is now a block boundary a few blocks back: found by the lookback
      const two = await ask([sys(), user('hello'), { role: 'assistant', content: 'hi there' }, user('again', true)])
      expect(two.usage.inputTokenDetails).to.deep.equal({ noCacheTokens: 0, cacheReadTokens: 1102, cacheWriteTokens: 2 + 2 })
      expect(two.usage.inputTokens).to.equal(1106)

      // streamed, with an uncached tail after the last breakpoint
      const three = streamText({ model: model(), messages: [sys(), user('hello', true), user('tail')], allowSystemInMessages: true, maxRetries: 0 })
      await three.consumeStream()
      expect((await three.usage).inputTokenDetails).to.deep.equal({ noCacheTokens: 1, cacheReadTokens: 1102, cacheWriteTokens: 0 })
    })

    it('does not read a changed prefix, nor an expired one, nor one under the minimum', async () => {
      fake.fallback({ text: 'ok' })
      await ask([sys(), user('hello', true)])
      const changed = await ask([sys(`${SYSTEM}!`), user('hello', true)])
      expect(changed.usage.inputTokenDetails).to.deep.include({ cacheReadTokens: 0, cacheWriteTokens: 1101 + 2 })
      // the system prefix alone is still cached (written at its own breakpoint)
      const same = await ask([sys(), user('bye', true)])
      expect(same.usage.inputTokenDetails).to.deep.include({ cacheReadTokens: 1100, cacheWriteTokens: 1 })

      fake.advance(5 * 60_000 + 1)
      const late = await ask([sys(), user('bye', true)])
      expect(late.usage.inputTokenDetails).to.deep.include({ cacheReadTokens: 0, cacheWriteTokens: 1101 })

      // a thinking setting is part of the messages' prefix, not of the system's
      await ask([sys(), user('bye', true)])
      const thinking = await generateText({
        model: model(), messages: [sys(), user('bye', true)], allowSystemInMessages: true, providerOptions: THINKING, maxRetries: 0,
      })
      expect(thinking.usage.inputTokenDetails).to.deep.include({ cacheReadTokens: 1100, cacheWriteTokens: 1 })

      const short = await ask([sys('short'), user('hello', true)])
      expect(short.usage.inputTokenDetails).to.deep.equal({ noCacheTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 })
    })

    it('keeps a 1h breakpoint past five minutes, and reports the write by TTL', async () => {
      fake.fallback({ text: 'ok' })
      const hour = { anthropic: { cacheControl: { type: 'ephemeral', ttl: '1h' } } }
      const messages: ModelMessage[] = [{ role: 'system', content: SYSTEM, providerOptions: hour }, user('hello', true)]
      const one = await ask(messages)
      expect((one.providerMetadata?.anthropic?.usage as any)?.cache_creation).to.deep.equal({ ephemeral_1h_input_tokens: 1100, ephemeral_5m_input_tokens: 2 })
      fake.advance(10 * 60_000)
      const later = await ask(messages)
      expect(later.usage.inputTokenDetails).to.deep.include({ cacheReadTokens: 1100, cacheWriteTokens: 2 })
    })

    it('caches automatically at the last block with the top-level cache_control', async () => {
      fake.fallback({ text: 'ok' })
      const auto = (messages: ModelMessage[]) =>
        generateText({ model: model(), system: SYSTEM, messages, providerOptions: EPHEMERAL, maxRetries: 0 })
      const one = await auto([user('hello')])
      expect(fake.requests[0].body.cache_control).to.deep.equal({ type: 'ephemeral' })
      expect(one.usage.inputTokenDetails).to.deep.include({ cacheReadTokens: 0, cacheWriteTokens: 1102 })
      const two = await auto([user('hello'), { role: 'assistant', content: 'hi there' }, user('again')])
      expect(two.usage.inputTokenDetails).to.deep.include({ cacheReadTokens: 1102, cacheWriteTokens: 4 })
    })

    it('misses a tools prefix between generate and stream: the SDK adds eager_input_streaming to streamed tools', async () => {
      fake.fallback({ text: 'ok' })
      const big = tool({ description: SYSTEM, inputSchema: z.object({ city: z.string() }), providerOptions: EPHEMERAL })
      await generateText({ model: model(), prompt: 'hi', tools: { big }, maxRetries: 0 })
      const again = await generateText({ model: model(), prompt: 'hi', tools: { big }, maxRetries: 0 })
      expect(again.usage.inputTokenDetails).to.deep.include({ cacheReadTokens: blockTokens(fake.requests[0].body.tools[0]), cacheWriteTokens: 0 })
      const streamed = streamText({ model: model(), prompt: 'hi', tools: { big }, maxRetries: 0 })
      await streamed.consumeStream()
      const streamedTool = fake.requests[2].body.tools[0]
      expect(streamedTool.eager_input_streaming).to.equal(true)
      expect((await streamed.usage).inputTokenDetails).to.deep.include({ cacheReadTokens: 0, cacheWriteTokens: blockTokens(streamedTool) })
    })

    it('refuses a fifth breakpoint; the SDK itself drops it with a warning', async () => {
      const marked = (text: string) => ({ type: 'text', text, cache_control: { type: 'ephemeral' } })
      const refused = await post({ system: [marked('a'), marked('b')], messages: [{ role: 'user', content: [marked('c'), marked('d'), marked('e')] }] })
      expect(refused.status).to.equal(400)
      expect(refused.json.error).to.deep.equal({ type: 'invalid_request_error', message: 'A maximum of 4 blocks with cache_control may be provided. Found 5.' })
      const four = await post({ system: [marked('a'), marked('b')], messages: [{ role: 'user', content: [marked('c'), marked('d')] }] })
      expect(four.json.error?.message).to.match(/no scripted reply/) // past the rules

      fake.script({ text: 'ok' })
      const parts = ['p1', 'p2', 'p3', 'p4', 'p5'].map((text) => ({ type: 'text' as const, text, providerOptions: EPHEMERAL }))
      const logging = (globalThis as any).AI_SDK_LOG_WARNINGS
      ;(globalThis as any).AI_SDK_LOG_WARNINGS = false
      const result = await generateText({ model: model(), messages: [{ role: 'user', content: parts }], maxRetries: 0 })
        .finally(() => { (globalThis as any).AI_SDK_LOG_WARNINGS = logging })
      expect(result.warnings?.map((w: any) => w.feature)).to.include('cacheControl breakpoint limit')
      expect(messagesOf(fake.requests.at(-1)!)[0].content.filter((b: any) => b.cache_control)).to.have.length(4)
    })
  })

  describe('extended thinking', () => {
    it('runs a tool loop when the assistant message keeps its signed thinking (generate and stream)', async () => {
      for (const [stream, redacted] of [[false, false], [true, false], [false, true], [true, true]]) {
        fake.reset()
        fake.script({ thinking: 'I should check the weather.', redacted, toolCalls: [{ name: 'weather', input: { city: 'Paris' } }] }, { text: 'Sunny.' })
        const tools = { weather: weatherTool([]) }
        const options = { model: model(), prompt: 'Paris?', tools, stopWhen: stepCountIs(2), providerOptions: THINKING, maxRetries: 0 }
        const text = stream ? await streamText(options).text : (await generateText(options)).text
        expect(text).to.equal('Sunny.')
        const [first, second] = fake.requests
        expect(first.body.thinking).to.deep.equal({ type: 'enabled', budget_tokens: 1024 })
        expect(messagesOf(second)[1].content[0]).to.deep.equal(redacted
          ? { type: 'redacted_thinking', data: fake.redactedData('I should check the weather.') }
          : { type: 'thinking', thinking: 'I should check the weather.', signature: fake.signature('I should check the weather.') })
      }
    })

    const question = { role: 'user', content: 'Paris?' }
    const call = { type: 'tool_use', id: 'toolu_9', name: 'weather', input: { city: 'Paris' } }
    const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'sunny' }] }
    const thinking = { type: 'enabled', budget_tokens: 1024 }

    it('refuses a tool-use turn without its thinking block, or with a forged signature', async () => {
      const bare = await post({ thinking, messages: [question, { role: 'assistant', content: [call] }, result] })
      expect(bare.status).to.equal(400)
      expect(bare.json.error.message).to.match(
        /^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`\. When `thinking` is enabled/,
      )

      const forged = { type: 'thinking', thinking: 'I should check.', signature: 'forged' }
      const bad = await post({ thinking, messages: [question, { role: 'assistant', content: [forged, call] }, result] })
      expect(bad.json.error.message).to.equal('messages.1.content.0: Invalid `signature` in `thinking` block')

      const signed = { ...forged, signature: fake.signature('I should check.') }
      fake.script({ text: 'Sunny.' })
      const good = await post({ thinking, messages: [question, { role: 'assistant', content: [signed, call] }, result] })
      expect(good.status).to.equal(200)
      const fakeData = { type: 'redacted_thinking', data: 'aGlkZGVu.forged' }
      const badData = await post({ thinking, messages: [question, { role: 'assistant', content: [fakeData, call] }, result] })
      expect(badData.json.error.message).to.equal('messages.1.content.0: Invalid `data` in `redacted_thinking` block')
      const redacted = { type: 'redacted_thinking', data: fake.redactedData('hidden') }
      fake.script({ text: 'Sunny.' })
      expect((await post({ thinking, messages: [question, { role: 'assistant', content: [redacted, call] }, result] })).status).to.equal(200)
      // without thinking enabled the same bare turn is fine
      fake.script({ text: 'Sunny.' })
      expect((await post({ messages: [question, { role: 'assistant', content: [call] }, result] })).status).to.equal(200)
    })

    it('asks the thinking block of the current tool-use turn only (all of them with thinkingRule: every)', async () => {
      const signed = { type: 'thinking', thinking: 'hmm', signature: fake.signature('hmm') }
      const call2 = { ...call, id: 'toolu_10' }
      const result2 = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_10', content: 'still sunny' }] }
      // one turn, two tool rounds: only its first assistant message must open with thinking
      fake.script({ text: 'Sunny.' })
      const rounds = [question, { role: 'assistant', content: [signed, call] }, result, { role: 'assistant', content: [call2] }, result2]
      const turn = await post({ thinking, messages: rounds })
      expect(turn.status).to.equal(200)
      // an earlier turn may drop its thinking once a new user question starts the next turn
      const earlier = [
        question, { role: 'assistant', content: [call] }, result, { role: 'assistant', content: 'Sunny.' }, { role: 'user', content: 'And Rome?' },
      ]
      fake.script({ text: 'Warm.' })
      expect((await post({ thinking, messages: earlier })).status).to.equal(200)

      const strict = await FakeAnthropic.start({ thinkingRule: 'every' })
      try {
        const res = await fetch(`${strict.baseURL}/messages`, {
          method: 'POST',
          headers: { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ model: MODEL, max_tokens: 2048, thinking, messages: earlier }),
        })
        expect((await res.json()).error.message).to.match(/^messages\.1\.content\.0\.type: Expected `thinking`/)
      } finally {
        await strict.close()
      }
    })

    it('refuses budgets under 1024 and forced tool use while thinking', async () => {
      const low = await post({ thinking: { type: 'enabled', budget_tokens: 500 }, messages: [question] })
      expect(low.json.error.message).to.equal('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024')
      const forced = await post({ thinking, tool_choice: { type: 'any' }, messages: [question] })
      expect(forced.json.error.message).to.equal('Thinking may not be enabled when tool_choice forces tool use.')
    })
  })

  describe('request rules', () => {
    it('pairs every tool_result with a tool_use of the previous message, and tool_use ids are unique', async () => {
      const stray = await post({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'x' }] }] })
      expect(stray.status).to.equal(400)
      expect(stray.json.error.message).to.match(/^messages\.0\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_x\./)

      const call = { type: 'tool_use', id: 'toolu_1', name: 'w', input: {} }
      const twice = await post({
        messages: [
          { role: 'user', content: 'q' }, { role: 'assistant', content: [call, call] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1' }] },
        ],
      })
      expect(twice.json.error.message).to.equal('messages.1.content.1: `tool_use` ids must be unique')

      const unanswered = await post({ messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: [call] }, { role: 'user', content: 'and?' }] })
      expect(unanswered.json.error.message).to.match(/^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1\./)
    })

    it('refuses unknown content block types and a missing anthropic-version', async () => {
      const odd = await post({ messages: [{ role: 'user', content: [{ type: 'hologram', text: 'x' }] }] })
      expect(odd.status).to.equal(400)
      expect(odd.json.error.message).to.match(/^messages\.0\.content\.0: Input tag 'hologram' found using 'type' does not match/)
      fake.fallback({ text: 'ok' })
      const body = JSON.stringify({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      const res = await fetch(`${fake.baseURL}/messages`, { method: 'POST', headers: { 'x-api-key': 'k' }, body })
      expect(res.status).to.equal(400)
      expect((await res.json()).error.message).to.equal('anthropic-version: header is required')
      expect(fake.requests).to.have.length(2) // refused, still recorded
    })

    it('sends an unknown block in a reply when scripted (the SDK cannot parse it)', async () => {
      fake.script({ text: 'x', unknownBlock: true }, { text: 'x', unknownBlock: 'hologram' })
      const err = await generateText({ model: model(), prompt: 'hi', maxRetries: 0 }).catch((e) => e)
      expect(APICallError.isInstance(err)).to.equal(true)
      expect(err.message).to.equal('Invalid JSON response')
      const errors: any[] = []
      await streamText({ model: model(), prompt: 'hi', maxRetries: 0, onError: ({ error }) => { errors.push(error) } }).consumeStream()
      expect(errors.map((e) => e.name)).to.deep.equal(['AI_TypeValidationError'])
      expect(errors[0].message).to.include('"type":"hologram"')
    })
  })

  describe('errors', () => {
    it('answers 529 overloaded_error as an APICallError with status 529', async () => {
      fake.script({ status: 529 })
      const err = await generateText({ model: model(), prompt: 'hi', maxRetries: 0 }).catch((e) => e)
      expect(APICallError.isInstance(err)).to.equal(true)
      expect(err.statusCode).to.equal(529)
      expect(err.message).to.equal('Overloaded')
      expect(JSON.parse(err.responseBody).error.type).to.equal('overloaded_error')
    })

    it('sends an error event in a 200 stream; first, the SDK raises it as a 529', async () => {
      fake.script({ streamError: 'start' })
      const errors: unknown[] = []
      const result = streamText({ model: model(), prompt: 'hi', maxRetries: 0, onError: ({ error }) => { errors.push(error) } })
      await result.consumeStream()
      expect(errors).to.have.length(1)
      expect(APICallError.isInstance(errors[0])).to.equal(true)
      expect((errors[0] as APICallError).statusCode).to.equal(529)
    })

    it('cuts a stream with an error event after some text; the SDK hands onError the bare error object', async () => {
      fake.script({ text: 'hello world', streamError: 'mid', errorType: 'api_error' })
      const errors: unknown[] = []
      const result = streamText({ model: model(), prompt: 'hi', maxRetries: 0, onError: ({ error }) => { errors.push(error) } })
      await result.consumeStream()
      expect(errors).to.deep.equal([{ type: 'api_error', message: 'Internal server error' }])
      expect(await result.text).to.equal('hello ')
    })

    it('refuses a wrong api key with 401 when the fake has one', async () => {
      const keyed = await FakeAnthropic.start({ apiKey: 'right' })
      try {
        const wrong = createAnthropic({ baseURL: keyed.baseURL, apiKey: 'wrong' })(MODEL)
        const err = await generateText({ model: wrong, prompt: 'hi', maxRetries: 0 }).catch((e) => e)
        expect(err.statusCode).to.equal(401)
        expect(JSON.parse(err.responseBody).error.type).to.equal('authentication_error')
      } finally {
        await keyed.close()
      }
    })
  })
})
