// Self-test of the fake servers: FakeOpenAI driven through the real AI SDK provider over HTTP, and
// the scripted-server core (routing, guards, cut connections) with a wire of the test's own.
import { expect } from 'chai'
import { embedMany, generateText, stepCountIs, streamText, tool } from 'ai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { z } from 'zod'
import FakeTimers from '@sinonjs/fake-timers'
import { FakeOpenAI, imagePartsOf, lastUserText, messagesOf, toolNamesOf, toolResultsOf } from '../support/fake-openai'
import { FakeEmbeddings } from '../support/fake-embeddings'
import { Delivery, ScriptedServer, sseEvent, Wire } from '../support/fakes/scripted-server'
import { tinyPng } from '../support/tiny-png'

describe('fake-openai', () => {
  let fake: FakeOpenAI

  beforeEach(async () => {
    fake = await FakeOpenAI.start()
  })

  afterEach(async () => {
    await fake.close()
  })

  function model(includeUsage = false) {
    return createOpenAICompatible({ name: 'fake', baseURL: fake.baseURL, apiKey: 'k', includeUsage }).chatModel('m')
  }

  function echoTool(seen: unknown[]) {
    return tool({
      description: 'echo a word',
      inputSchema: z.object({ word: z.string(), times: z.number() }),
      execute: async (input) => {
        seen.push(input)
        return `echoed ${input.word} x${input.times}`
      },
    })
  }

  it('runs a scripted tool call and records the tool result in the next request', async () => {
    fake.script(
      { toolCalls: [{ name: 'echo', arguments: { word: 'hi', times: 2 } }] },
      { content: 'done' },
    )
    const seen: unknown[] = []
    const result = await generateText({
      model: model(),
      prompt: 'say hi',
      tools: { echo: echoTool(seen) },
      stopWhen: stepCountIs(2),
    })

    expect(seen).to.deep.equal([{ word: 'hi', times: 2 }])
    expect(result.text).to.equal('done')
    expect(result.steps).to.have.length(2)
    expect(fake.requests).to.have.length(2)
    expect(fake.pending()).to.equal(0)

    const [first, second] = fake.requests
    expect(first.path).to.equal('/v1/chat/completions')
    expect(first.headers.authorization).to.equal('Bearer k')
    expect(first.body.model).to.equal('m')
    expect(toolNamesOf(first)).to.deep.equal(['echo'])
    expect(lastUserText(first)).to.equal('say hi')

    const assistant = messagesOf(second).find((m) => m.role === 'assistant')
    expect(assistant.tool_calls[0]).to.deep.include({ id: 'call_1', type: 'function' })
    expect(JSON.parse(assistant.tool_calls[0].function.arguments)).to.deep.equal({ word: 'hi', times: 2 })
    expect(toolResultsOf(second)).to.deep.equal([{ tool_call_id: 'call_1', content: 'echoed hi x2' }])
  })

  it('streams the same tool call (with usage chunk) through streamText', async () => {
    fake.script(
      { reasoning: 'thinking', toolCalls: [{ name: 'echo', arguments: { word: 'yo', times: 3 }, id: 'call_custom' }] },
      { content: 'streamed done' },
    )
    const seen: unknown[] = []
    const s = streamText({
      model: model(true),
      prompt: 'stream it',
      tools: { echo: echoTool(seen) },
      stopWhen: stepCountIs(2),
    })
    const text = await s.text
    const steps = await s.steps

    expect(text).to.equal('streamed done')
    expect(seen).to.deep.equal([{ word: 'yo', times: 3 }])
    expect(steps[0].reasoningText).to.equal('thinking')
    expect(steps[0].finishReason).to.equal('tool-calls')
    expect(steps[0].usage.inputTokens).to.be.a('number')
    expect(fake.requests).to.have.length(2)
    expect(fake.requests[0].body.stream).to.equal(true)
    expect(fake.requests[0].body.stream_options).to.deep.equal({ include_usage: true })
    expect(toolResultsOf(fake.requests[1])).to.deep.equal([{ tool_call_id: 'call_custom', content: 'echoed yo x3' }])
  })

  it('sends malformed argument strings as-is', async () => {
    fake.script({ toolCalls: [{ name: 'echo', arguments: '{"word": "oops"' }] }, { content: 'recovered' })
    const seen: unknown[] = []
    const result = await generateText({
      model: model(),
      prompt: 'x',
      tools: { echo: echoTool(seen) },
      stopWhen: stepCountIs(2),
    })
    // the SDK turns unparsable input into a tool-error result instead of executing
    expect(seen).to.deep.equal([])
    expect(result.steps[0].content.some((p) => p.type === 'tool-error')).to.equal(true)
    expect(toolResultsOf(fake.requests[1])[0].tool_call_id).to.equal('call_1')
  })

  it('retries a 500 once with maxRetries 1, then errors', async () => {
    fake.script({ status: 500, error: 'boom' }, { status: 500, error: 'boom again' })
    let error: any
    try {
      await generateText({ model: model(), prompt: 'x', maxRetries: 1 })
    } catch (e) {
      error = e
    }
    expect(error).to.be.instanceOf(Error)
    expect(String(error.message)).to.include('boom again')
    expect(fake.requests).to.have.length(2)
  })

  it('fails an unscripted request quickly with a clear message', async () => {
    let error: any
    try {
      await generateText({ model: model(), prompt: 'x' })
    } catch (e) {
      error = e
    }
    expect(error?.message).to.include('fake-openai: no scripted reply for request #0')
    expect(error.statusCode).to.equal(400)
    expect(fake.requests).to.have.length(1)
  })

  it('uses the fallback when the queue is empty, and function replies see the request', async () => {
    fake.fallback((req) => ({ content: `you said ${lastUserText(req)}` }))
    const a = await generateText({ model: model(), prompt: 'one' })
    const b = await generateText({ model: model(), prompt: [{ role: 'user', content: [{ type: 'text', text: 'tw' }, { type: 'text', text: 'o' }] }] })
    expect(a.text).to.equal('you said one')
    expect(b.text).to.equal('you said two')
    fake.reset()
    expect(fake.requests).to.have.length(0)
  })

  it('exposes user image parts as data URLs', async () => {
    fake.script({ content: 'nice picture' })
    const png = tinyPng(0, 1, 1)
    await generateText({
      model: model(),
      messages: [{
        role: 'user',
        content: [{ type: 'text', text: 'look' }, { type: 'image', image: png, mediaType: 'image/png' }],
      }],
    })
    expect(imagePartsOf(fake.requests[0])).to.deep.equal([`data:image/png;base64,${png.toString('base64')}`])
    expect(lastUserText(fake.requests[0])).to.equal('look')
  })

  it('aborts a hanging reply and still closes cleanly', async () => {
    fake.script({ hang: true })
    const controller = new AbortController()
    const call = generateText({ model: model(), prompt: 'x', maxRetries: 0, abortSignal: controller.signal })
    const settled = call.then((): unknown => undefined, (e): any => e)
    await fake.waitForRequests(1)
    controller.abort()
    const error = await settled
    expect(error).to.be.instanceOf(Error)
    expect(error.name).to.match(/Abort/)
    await fake.close()
  })

  it('closes while a request is still hanging', async () => {
    fake.script({ hang: true })
    const call = generateText({ model: model(), prompt: 'x', maxRetries: 0 }).then((): unknown => undefined, (e): unknown => e)
    await fake.waitForRequests(1)
    await fake.close()
    expect(await call).to.be.instanceOf(Error)
  })

  it('rejects waitForRequests on timeout with a clear message', async () => {
    let error: any
    try {
      await fake.waitForRequests(1, 50)
    } catch (e) {
      error = e
    }
    expect(error?.message).to.include('timed out after 50ms waiting for 1 request(s), got 0')
  })

  it('keeps real time for delayMs and waitForRequests under fake timers', async () => {
    // nextTick must stay real: node's HTTP stack needs it, and fake-timers fakes it by default
    const clock = FakeTimers.install({ toNotFake: ['nextTick', 'queueMicrotask'] })
    try {
      fake.script({ content: 'late', delayMs: 30 })
      const result = await generateText({ model: model(), prompt: 'x', maxRetries: 0 })
      expect(result.text).to.equal('late')
      const error = await fake.waitForRequests(2, 30).then((): unknown => undefined, (e): any => e)
      expect(error?.message).to.include('timed out after 30ms')
    } finally {
      clock.uninstall()
    }
  })

  it('sends extra headers: a 429 with retry-after-ms is retried after that delay', async () => {
    fake.script({ status: 429, error: 'slow down', headers: { 'retry-after-ms': '30' } }, { content: 'fine now' })
    const started = Date.now()
    const result = await generateText({ model: model(), prompt: 'x', maxRetries: 1 })
    expect(result.text).to.equal('fine now')
    expect(Date.now() - started).to.be.below(1500)   // the SDK's own first backoff is 2 s
    expect(fake.requests).to.have.length(2)
  })

  it('cut: true closes the connection in the middle of the JSON body', async () => {
    fake.script({ content: 'never whole', cut: true })
    const error = await generateText({ model: model(), prompt: 'x', maxRetries: 0 }).then((): unknown => undefined, (e): any => e)
    expect(error).to.be.instanceOf(Error)
    expect(String(error.cause?.message ?? error.message)).to.match(/terminated/)
    const raw = await fetch(`${fake.baseURL}/chat/completions`, { method: 'POST', body: '{}' }).catch((e) => e)
    expect(raw).to.be.instanceOf(Response)   // the server itself is fine (an unscripted 400)
  })

  it('truncateAt ends a JSON body cleanly after that many bytes', async () => {
    fake.script({ content: 'never whole', truncateAt: 25 })
    const res = await fetch(`${fake.baseURL}/chat/completions`, { method: 'POST', body: '{}' })
    const body = await res.text()
    expect(res.status).to.equal(200)
    expect(body).to.have.length(25)
    expect(() => JSON.parse(body)).to.throw()
  })

  it('truncateAt and cut leave a stream unfinished', async () => {
    fake.script({ content: 'a streamed answer', truncateAt: 200 }, { content: 'a streamed answer', cut: true })
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${fake.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify({ stream: true }) })
      const body = await res.text().catch((e) => `ERROR ${e.cause?.message ?? e.message}`)
      if (i === 0) expect(body).to.have.length(200)
      else expect(body).to.match(/^ERROR /)
      expect(body).to.not.include('[DONE]')
    }
    fake.script({ content: 'a streamed answer', truncateAt: 300 })
    const errors: unknown[] = []
    const s = streamText({ model: model(), prompt: 'x', maxRetries: 0, onError: ({ error }) => { errors.push(error) } })
    const text = await Promise.resolve(s.text).catch((e: any) => `ERROR ${e.message}`)
    expect(text).to.not.equal('a streamed answer')
    expect(String((errors[0] as Error)?.message)).to.match(/without a finish reason/)
  })

  it('answers GET /v1/models and 404s unknown paths', async () => {
    const models = await fetch(`${fake.baseURL}/models`)
    expect(models.status).to.equal(200)
    expect((await models.json()).data).to.have.length(1)
    const missing = await fetch(`${fake.baseURL}/nope`, { method: 'POST', body: '{}' })
    expect(missing.status).to.equal(404)
    expect((await missing.json()).error.message).to.include('unknown route')
    expect(fake.requests).to.have.length(0)
  })
})

// A made-up API: `{ say }` answered as `{ said }`, streamed as named events when `?stream=1`;
// errors as `{ error: { message } }`. It stands in for a later wire (Anthropic, Gemini, speech).
interface EchoReply extends Delivery { say?: string; error?: string }
const echoWire: Wire<EchoReply> = {
  error: (status, message) => ({ status, json: { error: { message } } }),
  render(reply, req) {
    if (reply.status && reply.status >= 400) return { status: reply.status, json: { error: { message: reply.error ?? 'echo error' } } }
    const said = reply.say ?? req.body?.say ?? ''
    if (req.query === 'stream=1') return { status: 200, chunks: [...said].map((c) => sseEvent({ c }, 'piece')).concat(sseEvent({}, 'stop')) }
    return { status: 200, json: { said } }
  },
}

describe('scripted server', () => {
  let server: ScriptedServer

  beforeEach(async () => {
    server = await ScriptedServer.start({ name: 'fake-echo' })
  })

  afterEach(async () => {
    await server.close()
  })

  const post = (path: string, body: unknown) => fetch(`${server.origin}${path}`, { method: 'POST', body: JSON.stringify(body) })

  it('routes by method and path, each endpoint with its own script and requests', async () => {
    const a = server.mount('POST', '/a', echoWire, 'a').script({ say: 'from a' })
    const b = server.mount('POST', /\/models\/[^/]+:echo/, echoWire, 'b').fallback((req) => ({ say: `b saw ${req.path}` }))
    server.serve('GET', '/health', () => ({ status: 200, json: { ok: true } }))
    expect(await (await post('/a', {})).json()).to.deep.equal({ said: 'from a' })
    expect(await (await post('/models/m1:echo', {})).json()).to.deep.equal({ said: 'b saw /models/m1:echo' })
    expect((await post('/models/m1:echo/more', {})).status).to.equal(404)   // a RegExp matches the whole path
    expect(await (await fetch(`${server.origin}/health`)).json()).to.deep.equal({ ok: true })
    expect(a.requests.map((r) => r.endpoint)).to.deep.equal(['a'])
    expect(b.requests.map((r) => [r.index, r.method, r.path])).to.deep.equal([[0, 'POST', '/models/m1:echo']])
    expect(server.requests.map((r) => r.endpoint), 'fixed routes and 404s are not recorded').to.deep.equal(['a', 'b'])
    expect(a.pending()).to.equal(0)
    const none = await post('/a', {})
    expect(none.status).to.equal(400)
    expect((await none.json()).error.message).to.equal('fake-echo: no scripted reply for request #1')
  })

  it('serves chat and embeddings on one port', async () => {
    const fake = await FakeOpenAI.start()
    try {
      fake.script({ content: 'hello' })
      fake.embeddings().fallback({ vectorOf: (t) => [t.length, 1] })
      const provider = createOpenAICompatible({ name: 'fake', baseURL: fake.baseURL, apiKey: 'k' })
      expect((await generateText({ model: provider.chatModel('m'), prompt: 'x' })).text).to.equal('hello')
      const { embeddings } = await embedMany({ model: provider.embeddingModel('e'), values: ['ab', 'abc'] })
      expect(embeddings).to.deep.equal([[2, 1], [3, 1]])
      expect(fake.requests, 'requests stay the chat ones').to.have.length(1)
      expect(fake.embeddings().requests[0].body.input).to.deep.equal(['ab', 'abc'])
      expect(fake.server.requests.map((r) => r.endpoint)).to.deep.equal(['chat', 'embeddings'])
    } finally {
      await fake.close()
    }
  })

  it('FakeEmbeddings answers with vectorOf, or 500s when failing', async () => {
    const fake = await FakeEmbeddings.start((t) => [t.length])
    try {
      const model = createOpenAICompatible({ name: 'fake', baseURL: fake.baseURL, apiKey: 'k' }).embeddingModel('emb')
      expect((await embedMany({ model, values: ['abcd'] })).embeddings).to.deep.equal([[4]])
      fake.failing = true
      const error = await embedMany({ model, values: ['x'], maxRetries: 0 }).then((): unknown => undefined, (e): any => e)
      expect(String(error?.message)).to.include('the embeddings server is down')
      expect(fake.requests).to.deep.equal([{ model: 'emb', input: ['abcd'] }, { model: 'emb', input: ['x'] }])
    } finally {
      await fake.close()
    }
  })

  it('checks guards before the script, without consuming it', async () => {
    const e = server.mount('POST', '/e', echoWire).script({ say: 'scripted' })
    e.guard((req) => req.body?.bad ? { error: 'refused' } : undefined)
    const refused = await post('/e', { bad: true })
    expect(refused.status).to.equal(400)
    expect((await refused.json()).error.message).to.equal('refused')
    expect(e.pending()).to.equal(1)
    expect(await (await post('/e', {})).json()).to.deep.equal({ said: 'scripted' })
    expect(e.requests).to.have.length(2)
  })

  it('answers an unparsable body and a throwing script in the wire\'s error shape', async () => {
    server.mount('POST', '/e', echoWire).script(() => { throw new Error('oops') })
    const bad = await fetch(`${server.origin}/e`, { method: 'POST', body: '{nope' })
    expect(bad.status).to.equal(400)
    expect((await bad.json()).error.message).to.include('fake-echo: request body is not JSON')
    const threw = await post('/e', {})
    expect((await threw.json()).error.message).to.equal('fake-echo: scripted reply for request #0 threw: oops')
  })

  it('cuts, truncates and delays any wire\'s stream and JSON alike', async () => {
    server.mount('POST', '/e', echoWire).script(
      { say: 'abcdef', truncateAt: 20 },
      { say: 'abcdef', cut: true },
      { say: 'abcdef', cut: true },
      { say: 'late', delayMs: 40, headers: { 'x-extra': '1' } },
    )
    const truncated = await (await fetch(`${server.origin}/e?stream=1`, { method: 'POST', body: '{}' })).text()
    expect(truncated).to.equal('event: piece\ndata: {"c":"a"}\n\n'.slice(0, 20))
    const cutStream = await fetch(`${server.origin}/e?stream=1`, { method: 'POST', body: '{}' })
      .then((r) => r.text()).catch((e) => `ERROR ${e.cause?.message ?? e}`)
    expect(cutStream).to.match(/^ERROR /)
    const cutJson = await post('/e', {}).then((r) => r.text()).catch((e) => `ERROR ${e.cause?.message ?? e}`)
    expect(cutJson).to.match(/^ERROR /)
    const started = Date.now()
    const late = await post('/e', {})
    expect(Date.now() - started).to.be.at.least(35)
    expect(late.headers.get('x-extra')).to.equal('1')
    expect(await late.json()).to.deep.equal({ said: 'late' })
  })

  it('waits for requests server-wide, and reset forgets every endpoint', async () => {
    const a = server.mount('POST', '/a', echoWire).fallback({})
    const b = server.mount('POST', '/b', echoWire).script({ say: 'x' }, { say: 'y' })
    const both = server.waitForRequests(2)
    await post('/a', {})
    await post('/b', {})
    expect((await both).map((r) => r.path)).to.deep.equal(['/a', '/b'])
    server.reset()
    expect([server.requests.length, a.requests.length, b.requests.length, b.pending()]).to.deep.equal([0, 0, 0, 0])
    expect((await post('/a', {})).status, 'the fallback is gone too').to.equal(400)
  })

  it('closes with a request hanging', async () => {
    server.mount('POST', '/e', echoWire).script({ hang: true })
    const call = post('/e', {}).then((): unknown => undefined, (e): unknown => e)
    await server.waitForRequests(1)
    await server.close()
    expect(await call).to.be.instanceOf(Error)
  })
})
