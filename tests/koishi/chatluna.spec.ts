// ChatLuna's models as kotodama models in a running Koishi (SPEC §11.1, issue 30): the fake
// `chatluna` service (tests/support/fake-chatluna.ts) is installed before the plugin, and a model
// entry `{ id: 'luna', chatluna: 'deepseek/deepseek-chat' }` answers through the bridge.
import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { App } from 'koishi'
import { Harness, call } from '../support/harness'
import { FakeChatLuna, serverError, type FakeChatModel } from '../support/fake-chatluna'
import { runtimeHome } from '../../src/runtime/runtime'
import { CHATLUNA_MODEL_SCHEMA } from '../../src/config/schema'
import { configSchema } from '../../src/runtime/config-of-parts'

const NAME = 'deepseek/deepseek-chat'
const KEY = 'sk-chatluna-secret-key'

/** The service object behind Koishi's per-access proxy. */
const lunaOf = (app: App): FakeChatLuna => (app as any).chatluna?.[Symbol.for('cordis.original')]

// continue: the turn goes on to a next step, which sees the result (SPEC §4.6)
const send = (text: string, id = 'c-send') => ({ tool_calls: [{ id, name: 'send_message', args: { messages: [text], continue: true } }] })
const finish = { tool_calls: [{ id: 'c-finish', name: 'finish', args: {} }] }

describe('ChatLuna models in kotodama (SPEC §11.1)', function () {
  let h: Harness
  let fork: ReturnType<App['plugin']> | undefined
  afterEach(async () => {
    await h?.stop()
    fork = undefined
  })

  const start = (luna: any = {}, chatluna = true) => Harness.start({
    before: app => { if (chatluna) fork = app.plugin(FakeChatLuna) },
    extraModels: [{ id: 'luna', chatluna: NAME, maxRetries: 0, timeoutMs: 10000, ...luna }],
    profile: { model: 'luna' },
    trust: { owners: ['mock:bob'] },
  })
  const model = (): FakeChatModel => lunaOf(h.app).model(NAME)

  async function entries(): Promise<any[]> {
    const file = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'conversations', 'private%3Abob.jsonl')
    return (await readFile(file, 'utf8')).split('\n').filter(Boolean).map(l => JSON.parse(l))
  }

  async function turn(text: string, sends: number) {
    await h.client('bob').receive(text)
    await h.until(() => h.sent.length === sends, `${sends} sends`)
    await h.settled()
  }

  /** A turn that sends nothing: waits for the warning it ends with. */
  async function failedTurn(text: string, warning: RegExp) {
    await h.client('bob').receive(text)
    await h.until(() => h.warnings().some(w => warning.test(w)), `a warning ${warning}`)
    await h.settled()
  }

  it('answers through the bridge: a tool call, its result on the next step, usage in kotodama.status; no key read', async () => {
    h = await start()
    model().script(
      { ...send('hi from luna'), usage_metadata: { input_tokens: 1500, output_tokens: 20, total_tokens: 1520, input_token_details: { cache_read: 1200 } } },
      { ...finish, usage_metadata: { input_tokens: 1600, output_tokens: 5, total_tokens: 1605 } },
    )
    await turn('hello luna', 1)
    expect(h.sent[0].content).to.equal('hi from luna')
    const [first, second] = model().calls
    expect(model().calls).to.have.length(2)
    expect(first.options.tools.map((t: any) => t.name)).to.include.members(['send_message', 'finish'])
    expect(JSON.stringify(first.wire.messages.filter(m => m.role === 'user'))).to.include('hello luna')
    // the step's call and its result go back on the next step, paired by id
    const asked = second.wire.messages.find(m => m.role === 'assistant' && m.tool_calls?.[0]?.function.name === 'send_message')
    expect(asked, JSON.stringify(second.wire.messages)).to.exist
    const result = second.wire.messages.find(m => m.role === 'tool')
    expect(result.tool_call_id).to.equal(asked.tool_calls[0].id)
    expect(result.content).to.be.a('string').and.not.equal('')
    expect(h.server.requests).to.have.length(0)
    const step = (await entries()).find(e => e.type === 'step')
    expect(step.usage).to.include({ model: 'luna', promptTokens: 1500, cachedTokens: 1200, completionTokens: 20 })
    const [status] = await h.client('bob').receive('kotodama.status')
    expect(status, status).to.include('  model luna:\n    since start: 2 requests, 3100 prompt tokens (39% cached), 25 completion tokens, 0 errors')
    // ChatLuna's keys stay ChatLuna's: never read, never logged
    expect(lunaOf(h.app).keyReads).to.equal(0)
    expect(h.logs.map(l => l.text).join('\n')).to.not.include(KEY)
    expect(lunaOf(h.app).adapterConfig.apiKeys[0][0]).to.equal(KEY)
    expect(lunaOf(h.app).keyReads).to.equal(1)
  })

  it('the model vanishing mid-conversation ends the turn with a warning naming ChatLuna; nothing is lost', async () => {
    h = await start()
    model().script(send('first'), finish)
    await turn('message one', 1)
    lunaOf(h.app).drop(NAME)
    const gone = /the call to model "luna" failed, the turn ends: ChatLuna has no model "deepseek\/deepseek-chat" now \(ChatLuna may be reloading\)/
    await failedTurn('message two', gone)
    expect(h.sent).to.have.length(1)
    const failure = (await entries()).find(e => e.type === 'failure')
    expect(failure).to.include({ model: 'luna' })
    expect(failure.error).to.match(/ChatLuna has no model "deepseek\/deepseek-chat" now/)
    // back: the message of the failed turn is still in the conversation
    lunaOf(h.app).add(NAME).script(send('second'), finish)
    await turn('message three', 2)
    const seen = JSON.stringify(model().calls[2].wire.messages)
    expect(seen).to.include('message two')
    expect(seen).to.include('message three')
    // asked once: `.value` is read at every call, so the drop and the return were seen without asking again
    expect(lunaOf(h.app).asked.get(NAME)).to.equal(1)
  })

  it("with fallback ['main'], the step ChatLuna cannot answer is answered by the next model", async () => {
    h = await start({ fallback: ['main'] })
    lunaOf(h.app).drop(NAME)
    h.server.script({ toolCalls: [call('send_message', { messages: ['from main'] }), call('finish', {})] })
    await turn('hello', 1)
    expect(h.sent[0].content).to.equal('from main')
    expect(h.warnings().join('\n')).to.match(/model "luna" is unavailable \(ChatLuna has no model "deepseek\/deepseek-chat" now.*\); trying "main"/)
    const step = (await entries()).find(e => e.type === 'step')
    expect(step.usage.model).to.equal('main')
    expect(model().calls).to.have.length(0)
  })

  it("ChatLuna's server errors: a 503 fails over, a 400 does not and is told in the server's words", async () => {
    h = await start({ fallback: ['main'] })
    model().script({ error: serverError(503, 'Service Unavailable', { error: { message: 'Server is busy' } }) })
    h.server.script({ toolCalls: [call('send_message', { messages: ['from main'] }), call('finish', {})] })
    await turn('one', 1)
    expect(h.sent[0].content).to.equal('from main')
    expect(h.warnings().join('\n')).to.match(/model "luna" is unavailable \(HTTP 503: ChatLuna error 103 .*Server is busy.*\); trying "main"/)
    const mainAsked = h.server.requests.length
    model().script({ error: serverError(400, 'Bad Request', { error: { message: 'Invalid tool schema' } }) })
    await failedTurn('two', /the call to model "luna" failed, the turn ends: HTTP 400: ChatLuna error 103 .*Invalid tool schema/)
    expect(h.server.requests).to.have.length(mainAsked)
    expect(h.sent).to.have.length(1)
  })

  it('ChatLuna stopped (its plugin disposed) fails over; a new ChatLuna is asked again and answers', async () => {
    h = await start({ fallback: ['main'] })
    model().script(send('luna one'), finish)
    await turn('one', 1)
    fork!.dispose()
    await h.idle()
    h.server.script({ toolCalls: [call('send_message', { messages: ['from main'] }), call('finish', {})] })
    await turn('two', 2)
    expect(h.sent[1].content).to.equal('from main')
    expect(h.warnings().join('\n')).to.match(/model "luna" is unavailable \(model "deepseek\/deepseek-chat" is a ChatLuna model, but ChatLuna is not loaded/)
    // a new service: its own refs, not the stopped one's
    h.app.plugin(FakeChatLuna)
    await h.idle()
    model().script(send('luna is back'), finish)
    await turn('three', 3)
    expect(h.sent[2].content).to.equal('luna is back')
    expect(lunaOf(h.app).asked.get(NAME)).to.equal(1)
  })

  it("the console form offers ChatLuna's chat models, and follows its list", async () => {
    h = await start()
    const offered = () => {
      const s = (h.app as any).schema.get(CHATLUNA_MODEL_SCHEMA)
      return s.type === 'union' ? s.list.map((c: any) => c.value) : s.type
    }
    expect(offered()).to.deep.equal(['', NAME])
    lunaOf(h.app).add('deepseek/deepseek-reasoner')
    expect(offered()).to.deep.equal(['', NAME, 'deepseek/deepseek-reasoner'])
    lunaOf(h.app).drop(NAME)
    expect(offered()).to.deep.equal(['', 'deepseek/deepseek-reasoner'])
    fork!.dispose()
    await h.idle()
    expect(offered()).to.equal('string')
    // the form's field: the list above in the console, any value on the server
    const field = (configSchema as any).dict.models.inner.dict.chatluna
    expect(field.type).to.equal('any')
    expect(field.meta).to.deep.include({ role: 'dynamic', extra: { name: CHATLUNA_MODEL_SCHEMA }, default: '' })
  })

  it('without ChatLuna the field is a text field, and a ChatLuna entry fails in words', async () => {
    h = await start({}, false)
    expect((h.app as any).schema.get(CHATLUNA_MODEL_SCHEMA).type).to.equal('string')
    await failedTurn('hello', /the call to model "luna" failed, the turn ends: model "deepseek\/deepseek-chat" is a ChatLuna model, but ChatLuna is not loaded/)
    expect(h.sent).to.have.length(0)
  })
})
