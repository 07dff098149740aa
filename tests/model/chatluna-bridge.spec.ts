// The ChatLuna bridge alone (SPEC §11.1): the AI SDK prompt as LangChain message-likes, ChatLuna's
// AIMessage as V3 content and usage, its stream as V3 stream parts, and its failures as kinds
// failover understands. The chat model is the fake of tests/support/fake-chatluna.ts.
import { expect } from 'chai'
import type { LanguageModelV3CallOptions, LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { chatLunaModel, type ChatLunaModels } from '../../src/model/providers/chatluna'
import { describeFailure, failureKind } from '../../src/model/failure'
import { checkConfig } from '../../src/runtime/config-of-parts'
import { ChatLunaErrorLike, FakeChatModel, serverError } from '../support/fake-chatluna'

const NAME = 'deepseek/deepseek-chat'
const schema = () => ({
  $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', additionalProperties: false,
  properties: { messages: { type: 'array', items: { type: 'string' } } }, required: ['messages'],
})
const sendTool = (inputSchema: any = schema()) => ({ type: 'function' as const, name: 'send_message', description: 'Send messages', inputSchema })

const prompt: LanguageModelV3Prompt = [
  { role: 'system', content: 'You are Neko.' },
  { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'file', mediaType: 'image/png', data: new Uint8Array([137, 80, 78, 71]) }] },
  {
    role: 'assistant', content: [
      { type: 'reasoning', text: 'a cat picture' },
      { type: 'text', text: '' },
      { type: 'tool-call', toolCallId: 'call-1', toolName: 'send_message', input: { messages: ['cute'] } },
    ],
  },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call-1', toolName: 'send_message', output: { type: 'json', value: { sent: 1 } } }] },
  { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
]

const lunaOf = (model: FakeChatModel | undefined, loaded = true): ChatLunaModels => ({ loaded: () => loaded, model: async () => model })
const opts = (o: Partial<LanguageModelV3CallOptions> = {}): LanguageModelV3CallOptions => ({ prompt, tools: [sendTool()], ...o })

async function parts(stream: ReadableStream<LanguageModelV3StreamPart>): Promise<LanguageModelV3StreamPart[]> {
  const out: LanguageModelV3StreamPart[] = []
  for await (const p of stream as any) out.push(p)
  return out
}

async function failure(p: PromiseLike<unknown>): Promise<any> {
  try {
    await p
  } catch (e) {
    return e
  }
  throw new Error('expected a failure')
}

describe('the ChatLuna bridge (SPEC §11.1)', () => {
  it('sends the prompt as message-likes LangChain coerces, and tools as copies of their JSON Schema', async () => {
    const fake = new FakeChatModel(NAME).script({ content: 'ok' })
    const tool = sendTool()
    await chatLunaModel(NAME, lunaOf(fake)).doGenerate(opts({ tools: [tool] }))
    const [c] = fake.calls
    expect(c.via).to.equal('invoke')
    expect(c.messages.map(m => m.type)).to.deep.equal(['system', 'human', 'ai', 'tool', 'human'])
    const wire = c.wire.messages
    expect(wire[0]).to.deep.equal({ role: 'system', content: 'You are Neko.' })
    expect(wire[1].content).to.deep.equal([{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } }])
    expect(wire[2]).to.deep.include({
      role: 'assistant', content: null, reasoning_content: 'a cat picture',
      tool_calls: [{ id: 'call-1', type: 'function', function: { name: 'send_message', arguments: '{"messages":["cute"]}' } }],
    })
    expect(wire[3]).to.deep.equal({ role: 'tool', content: '{"sent":1}', name: 'send_message', tool_call_id: 'call-1' })
    expect(wire[4]).to.deep.equal({ role: 'user', content: 'thanks' })
    expect(c.wire.tools).to.deep.equal([{
      type: 'function',
      function: { name: 'send_message', description: 'Send messages', parameters: { type: 'object', properties: schema().properties, required: ['messages'] } },
    }])
    // the adapter deleted additionalProperties from the copy it was given, not from kotodama's schema
    expect(tool.inputSchema).to.deep.equal(schema())
  })

  it('maps the AIMessage: reasoning, text, tool calls, usage with cache reads and writes', async () => {
    const fake = new FakeChatModel(NAME).script({
      content: 'hello',
      tool_calls: [{ id: 'tc-1', name: 'send_message', args: { messages: ['hi'] } }],
      additional_kwargs: { reasoning_content: 'they greeted me' },
      usage_metadata: { input_tokens: 1200, output_tokens: 30, total_tokens: 1230, input_token_details: { cache_read: 1000, cache_creation: 100 } },
    })
    const r = await chatLunaModel(NAME, lunaOf(fake)).doGenerate(opts())
    expect(r.content).to.deep.equal([
      { type: 'reasoning', text: 'they greeted me' },
      { type: 'text', text: 'hello' },
      { type: 'tool-call', toolCallId: 'tc-1', toolName: 'send_message', input: '{"messages":["hi"]}' },
    ])
    expect(r.usage.inputTokens).to.deep.equal({ total: 1200, noCache: 100, cacheRead: 1000, cacheWrite: 100 })
    expect(r.usage.outputTokens).to.deep.equal({ total: 30, text: 30, reasoning: undefined })
    expect(r.finishReason.unified).to.equal('tool-calls')
  })

  it('reasoning goes back where models[].reasoning says: auto where the step kept it, return always, drop never', async () => {
    const sent = async (reasoning: 'auto' | 'return' | 'drop', p = prompt) => {
      const fake = new FakeChatModel(NAME).script({ content: 'ok' })
      await chatLunaModel(NAME, lunaOf(fake), { reasoning }).doGenerate(opts({ prompt: p }))
      return fake.calls[0].wire.messages.find(m => m.role === 'assistant')
    }
    const without = prompt.map(m => m.role === 'assistant' ? { ...m, content: m.content.filter(p => p.type !== 'reasoning') } : m) as LanguageModelV3Prompt
    expect((await sent('auto')).reasoning_content).to.equal('a cat picture')
    expect(await sent('auto', without)).to.not.have.property('reasoning_content')
    expect((await sent('return', without)).reasoning_content).to.equal('')
    expect(await sent('drop')).to.not.have.property('reasoning_content')
  })

  it('streams: text as deltas, tool-call chunks joined by index, the reasoning and the last usage', async () => {
    const fake = new FakeChatModel(NAME).script({
      chunks: [
        { content: 'Hel' }, { content: 'lo' },
        { tool_call_chunks: [{ index: 0, id: 'c1', name: 'send_message', args: '{"messages":' }] } as any,
        { tool_call_chunks: [{ index: 0, args: '["hi"]}' }] } as any,
        { usage_metadata: { input_tokens: 50, output_tokens: 7, total_tokens: 57 } },
        { additional_kwargs: { reasoning_content: 'hmm' } },
      ],
    })
    const { stream } = await chatLunaModel(NAME, lunaOf(fake)).doStream(opts())
    const all = await parts(stream)
    expect(fake.calls[0].via).to.equal('stream')
    expect(all.filter(p => p.type === 'text-delta').map(p => (p as any).delta)).to.deep.equal(['Hel', 'lo'])
    expect(all.find(p => p.type === 'reasoning-delta')).to.include({ delta: 'hmm' })
    expect(all.find(p => p.type === 'tool-call')).to.deep.equal({ type: 'tool-call', toolCallId: 'c1', toolName: 'send_message', input: '{"messages":["hi"]}' })
    const finish = all.at(-1) as any
    expect(finish.type).to.equal('finish')
    expect(finish.finishReason.unified).to.equal('tool-calls')
    expect(finish.usage.inputTokens.total).to.equal(50)
    expect(finish.usage.outputTokens.total).to.equal(7)
  })

  it('a model ChatLuna does not have now, or no ChatLuna at all: unavailable, in words that name ChatLuna', async () => {
    const gone = await failure(chatLunaModel(NAME, lunaOf(undefined)).doGenerate(opts()))
    expect(failureKind(gone)).to.equal('unavailable')
    expect(describeFailure(gone)).to.equal(`ChatLuna has no model "${NAME}" now (ChatLuna may be reloading)`)
    const streamGone = await failure(chatLunaModel(NAME, lunaOf(undefined)).doStream(opts()))
    expect(streamGone.message).to.equal(gone.message)
    for (const none of [undefined, lunaOf(new FakeChatModel(NAME), false)]) {
      const e = await failure(chatLunaModel(NAME, none).doGenerate(opts()))
      expect(failureKind(e)).to.equal('unavailable')
      expect(describeFailure(e)).to.match(/model "deepseek\/deepseek-chat" is a ChatLuna model, but ChatLuna is not loaded/)
    }
  })

  it("ChatLuna's errors: the server's quoted status decides, else unavailable with ChatLuna's code", async () => {
    const failWith = async (error: Error, stream = false) => {
      const m = chatLunaModel(NAME, lunaOf(new FakeChatModel(NAME).script({ error })))
      return failure(stream ? m.doStream(opts()) : m.doGenerate(opts()))
    }
    const busy = await failWith(serverError(503, 'Service Unavailable', { error: { message: 'Server is busy' } }))
    expect(failureKind(busy)).to.equal('unavailable')
    expect(describeFailure(busy)).to.match(/^HTTP 503: ChatLuna error 103 \(API_REQUEST_FAILED\) from model "deepseek\/deepseek-chat": .*Server is busy/)
    const refused = await failWith(serverError(400, 'Bad Request', { error: { message: 'The reasoning_content in the thinking mode must be passed back' } }))
    expect(failureKind(refused)).to.equal('invalid')
    expect(describeFailure(refused)).to.match(/^HTTP 400: .*reasoning_content in the thinking mode/)
    const network = await failWith(new ChatLunaErrorLike(1))
    expect(failureKind(network)).to.equal('unavailable')
    expect(describeFailure(network)).to.equal('ChatLuna error 1 (NETWORK_ERROR) from model "deepseek/deepseek-chat"')
    // a stream that fails before its first chunk throws from doStream, so the step can fail over
    const streamed = await failWith(serverError(429, 'Too Many Requests', { error: { message: 'rate limited' } }), true)
    expect(failureKind(streamed)).to.equal('unavailable')
    expect(describeFailure(streamed)).to.match(/^HTTP 429: .*rate limited/)
  })

  it("a model that never answers is given up at the step's timeout, as a timeout", async () => {
    const fake = new FakeChatModel(NAME).script({ hang: true })
    const e = await failure(chatLunaModel(NAME, lunaOf(fake)).doGenerate(opts({ abortSignal: AbortSignal.timeout(100) })))
    expect(failureKind(e)).to.equal('unavailable')
    expect(describeFailure(e, 100)).to.equal('no answer within 100 ms (timeout)')
    expect(fake.calls[0].options.signal).to.be.instanceOf(AbortSignal)
    // ChatLuna's first lookup of a platform (it may ask its server) is held to the timeout too
    const lookup: ChatLunaModels = { loaded: () => true, model: () => new Promise(() => {}) }
    const stuck = await failure(chatLunaModel(NAME, lookup).doGenerate(opts({ abortSignal: AbortSignal.timeout(100) })))
    expect(describeFailure(stuck, 100)).to.equal('no answer within 100 ms (timeout)')
  })

  it("models[].chatluna must name 'platform/model'", () => {
    const entry = { id: 'luna', baseURL: 'x', model: 'y', maxRetries: 0, timeoutMs: 1000, contextTokens: 0 }
    const problems = (chatluna: unknown) => checkConfig({ models: [{ ...entry, chatluna }], profiles: [] } as any).problems
    expect(problems('deepseek/deepseek-chat')).to.deep.equal([])
    expect(problems('')).to.deep.equal([])
    expect(problems('deepseek-chat')[0]).to.include({ path: 'models[0].chatluna' })
    expect(problems(3)[0].message).to.match(/platform\/model/)
  })
})
