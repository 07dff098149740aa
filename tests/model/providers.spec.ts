// Providers as they really are (issue 19, SPEC §10 and §11): fake servers that enforce each
// provider's documented rule, and the plugin talking to them through the real AI SDK provider.
import { expect } from 'chai'
import { readFile, writeFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { Harness, call } from '../support/harness'
import { FakeOpenAI, messagesOf, type RecordedRequest } from '../support/fake-openai'
import { DeepSeekThinking, DEEPSEEK_400 } from '../support/deepseek'
import { homeOf, readHistoryWhen, requestText } from '../support/faults'
import { freePort } from '../support/free-port'

const say = (text: string) => call('send_message', { messages: [text] })

/** Assistant messages with tool calls in a request body. */
const toolCallMessages = (r: RecordedRequest) => messagesOf(r).filter(m => m.role === 'assistant' && m.tool_calls?.length)

describe('providers as they really are (issue 19)', function () {
  let h: Harness
  afterEach(async () => { await h?.stop() })

  describe('DeepSeek\'s thinking mode: reasoning_content passed back (SPEC §11)', () => {
    /** One turn: a mention, a thinking answer with a send, the send delivered. */
    async function turn(h: Harness, ds: DeepSeekThinking, n: number) {
      const sent = h.sent.length
      h.server.script(ds.reply({ reasoning: `thought ${n}: they said hello ${n}`, toolCalls: [say(`answer ${n}`)] }))
      await h.client('alice', 'room1').receive(`<at id="514"/> hello ${n}`)
      await h.until(() => h.sent.length === sent + 1, `answer ${n}`)
      await h.settled()
      expect(h.sent.at(-1)!.content).to.equal(`answer ${n}`)
    }

    it('auto: one 400 at most, learned; the same step is retried at once; three turns and a restart later no 400 again', async () => {
      h = await Harness.start()
      const ds = new DeepSeekThinking()
      h.server.guard(ds.guard)
      for (const n of [1, 2, 3]) await turn(h, ds, n)
      expect(ds.refusals, 'the server refused once: the first request that held a tool call without its reasoning').to.have.length(1)
      expect(h.logs.some(l => l.level === 'info' && /asks for its reasoning back/.test(l.text))).to.equal(true)
      expect(h.warnings().join('\n'), 'the 400 is not a failed turn').to.not.match(/failed/)
      // every later request carries each tool-call message's reasoning, unchanged
      const last = h.server.requests.at(-1)!
      expect(toolCallMessages(last).map(m => m.reasoning_content)).to.deep.equal(['thought 1: they said hello 1', 'thought 2: they said hello 2'])
      const learned = JSON.parse(await readFile(join(h.dataDir, 'models.json'), 'utf8'))
      expect(learned.models.main).to.include({ reasoning: 'return', model: 'fake-model' })

      await h.reload()
      await turn(h, ds, 4)
      expect(ds.refusals, 'after a restart the model still returns its reasoning').to.have.length(1)
      expect(toolCallMessages(h.server.requests.at(-1)!)).to.have.length(3)
    })

    it('return: never a 400; a step without reasoning sends reasoning_content ""', async () => {
      h = await Harness.start({ model: { reasoning: 'return' } })
      const ds = new DeepSeekThinking()
      h.server.guard(ds.guard)
      h.server.script({ toolCalls: [say('no thoughts')] })   // a step without reasoning
      await h.client('alice', 'room1').receive('<at id="514"/> quick')
      await h.until(() => h.sent.length === 1, 'the first answer')
      await h.settled()
      for (const n of [2, 3]) await turn(h, ds, n)
      expect(ds.refusals).to.deep.equal([])
      const back = toolCallMessages(h.server.requests.at(-1)!).map(m => m.reasoning_content)
      expect(back).to.deep.equal(['', 'thought 2: they said hello 2'])
    })

    it('drop: reasoning_content is never sent, though every step is kept with its reasoning', async () => {
      h = await Harness.start({ model: { reasoning: 'drop' } })
      for (const n of [1, 2, 3]) {
        h.server.script({ reasoning: `secret thought ${n}`, content: `<think>inline thought ${n}</think>`, toolCalls: [say(`a${n}`)] })
        await h.client('alice', 'room1').receive(`<at id="514"/> q${n}`)
        await h.until(() => h.sent.length === n, `answer ${n}`)
        await h.settled()
      }
      for (const r of h.server.requests) {
        expect(JSON.stringify(r.body), `request #${r.index}`).to.not.match(/reasoning_content|secret thought|inline thought/)
      }
      const history = await readHistoryWhen(h, 'group:room1', r => r.entries.filter(e => e.type === 'step').length === 3)
      // the field's reasoning and the <think> block's, each its own part
      const reasoningOf = (e: any) => e.messages[0].content.filter((p: any) => p.type === 'reasoning').map((p: any) => p.text).join('\n')
      const kept = history.entries.filter(e => e.type === 'step').map(reasoningOf)
      expect(kept).to.deep.equal([1, 2, 3].map(n => `secret thought ${n}\ninline thought ${n}`))
    })

    it('DeepSeek\'s prompt_cache_hit_tokens are read as cached tokens', async () => {
      h = await Harness.start()
      h.server.script({ toolCalls: [say('hi')], usage: { prompt_tokens: 1200, prompt_cache_hit_tokens: 1024, completion_tokens: 20 } })
      await h.client('alice', 'room1').receive('<at id="514"/> hi')
      await h.until(() => h.sent.length === 1, 'the answer')
      const history = await readHistoryWhen(h, 'group:room1', r => r.entries.some(e => e.type === 'step'))
      expect(history.entries.find(e => e.type === 'step').usage).to.include({ promptTokens: 1200, cachedTokens: 1024, completionTokens: 20 })
    })

    it('a 400 naming reasoning_content under drop is a failed call, not a loop', async () => {
      h = await Harness.start({ model: { reasoning: 'drop' } })
      const ds = new DeepSeekThinking()
      h.server.guard(ds.guard)
      await turn(h, ds, 1)
      await h.client('alice', 'room1').receive('<at id="514"/> again')
      await h.until(() => ds.refusals.length === 1, 'the refusal')
      await h.settled()
      expect(ds.refusals).to.have.length(1)
      expect(h.warnings().join('\n')).to.include(`HTTP 400: ${DEEPSEEK_400}`)
    })
  })

  describe('placeholder keys (SPEC §10)', () => {
    for (const key of ['ollama', 'EMPTY']) {
      it(`apiKey "${key}": what people write and what files hold reach the model unaltered`, async () => {
        h = await Harness.start({ model: { apiKey: key } })
        const note = `this laptop runs ollama; set the key to EMPTY for vLLM`
        await mkdir(join(homeOf(h), 'local'), { recursive: true })
        await writeFile(join(homeOf(h), 'local', 'setup.md'), note)
        h.server.script({ toolCalls: [call('read', { url: 'local://setup.md' })] }, { toolCalls: [call('finish', {})] })
        await h.client('alice', 'room1').receive('<at id="514"/> I run ollama on my laptop, EMPTY as the key')
        await h.server.waitForRequests(2)
        await h.settled()
        expect(requestText(h.server.requests[0])).to.include('I run ollama on my laptop, EMPTY as the key')
        expect(requestText(h.server.requests[1])).to.include(note)
        expect(JSON.stringify(h.server.requests[1].body)).to.not.include('***')
      })
    }

    it('a long key echoed in a provider error is still masked, next to a placeholder key', async () => {
      const [other, ollama] = await Promise.all([FakeOpenAI.start(), FakeOpenAI.start()])
      const KEY = 'sk-relay-0123456789abcdefLONGSECRET'
      try {
        h = await Harness.start({ models: [
          { id: 'main', baseURL: other.baseURL, apiKey: KEY, model: 'm', maxRetries: 0, timeoutMs: 5000, fallback: ['local'] },
          { id: 'local', baseURL: ollama.baseURL, apiKey: 'ollama', model: 'qwen3', maxRetries: 0, timeoutMs: 5000 },
        ] })
        other.script({ status: 503, error: `upstream refused key ${KEY}` })
        ollama.script({ toolCalls: [say('ollama answers')] })
        await h.client('alice', 'room1').receive('<at id="514"/> is ollama up?')
        await h.until(() => h.sent.length === 1, 'the fallback\'s answer')
        await h.settled()
        expect(h.logs.filter(l => l.text.includes(KEY))).to.deep.equal([])
        expect(h.warnings().join('\n')).to.include('upstream refused key ***')
        expect(requestText(ollama.requests[0])).to.include('is ollama up?')
      } finally {
        await Promise.all([other.close(), ollama.close()])
      }
    })
  })

  describe('relays and servers with their own numbering', () => {
    /** A relay (the profile's model) whose fallback is a second server. */
    async function withRelay(test: (relay: FakeOpenAI, backup: FakeOpenAI) => Promise<void>) {
      const [relay, backup] = await Promise.all([FakeOpenAI.start(), FakeOpenAI.start()])
      try {
        h = await Harness.start({ models: [
          { id: 'relay', baseURL: relay.baseURL, apiKey: 'sk-test-relay-key', model: 'gpt', maxRetries: 0, timeoutMs: 5000, fallback: ['main'] },
          { id: 'main', baseURL: backup.baseURL, apiKey: 'sk-test', model: 'fake-model', maxRetries: 0, timeoutMs: 5000 },
        ], profile: { model: 'relay' } })
        await test(relay, backup)
      } finally {
        await Promise.all([relay.close(), backup.close()])
      }
    }

    it('a relay\'s HTTP 200 with an error body fails over, logged in the server\'s own words', () => withRelay(async (relay, backup) => {
      // one-api / new-api style: the upstream failed, the relay still says 200
      relay.script({ body: { error: { code: 503, message: 'upstream channel overloaded (request id 42)', type: 'new_api_error' } } })
      backup.script({ toolCalls: [say('from the fallback')] })
      await h.client('alice', 'room1').receive('<at id="514"/> anyone?')
      await h.until(() => h.sent.length === 1, 'the fallback\'s answer')
      expect(h.sent[0].content).to.equal('from the fallback')
      const said = /model "relay" is unavailable \(HTTP 200 with an error body \(code 503\): upstream channel overloaded \(request id 42\)\); trying "main"/
      expect(h.warnings().join('\n')).to.match(said)
    }))

    it('a 200 whose error body says the request was invalid does not fail over', () => withRelay(async (relay, backup) => {
      relay.script({ body: { error: { code: 400, message: 'messages: too many tool calls' } } })
      await h.client('alice', 'room1').receive('<at id="514"/> anyone?')
      await h.until(() => h.warnings().some(w => /failed, the turn ends/.test(w)), 'the failed turn')
      await h.settled()
      expect(backup.requests, 'the fallback is not asked').to.have.length(0)
      expect(h.warnings().join('\n')).to.include('HTTP 200 with an error body (code 400): messages: too many tool calls')
    }))

    it('a server that numbers every call call_0 keeps the conversation working for five turns', async () => {
      h = await Harness.start()
      // OpenAI-style validation: one id twice in a request is refused (agno #5116)
      h.server.guard(req => {
        const ids = messagesOf(req).flatMap(m => (m.tool_calls ?? []).map((c: any) => c.id))
        return new Set(ids).size === ids.length ? undefined : { status: 400, error: `Duplicate value for 'tool_call_id': ${ids.join(',')}` }
      })
      for (let n = 1; n <= 5; n++) {
        h.server.script({ toolCalls: [{ ...say(`answer ${n}`), id: 'call_0' }] })
        await h.client('alice', 'room1').receive(`<at id="514"/> turn ${n}`)
        await h.until(() => h.sent.length === n, `answer ${n}`)
        await h.settled()
      }
      const last = h.server.requests.at(-1)!
      const ids = toolCallMessages(last).flatMap(m => m.tool_calls.map((c: any) => c.id))
      expect(ids).to.have.length(4)
      expect(new Set(ids).size).to.equal(4)
      expect(ids).to.not.include('call_0')
      const results = messagesOf(last).filter(m => m.role === 'tool').map(m => m.tool_call_id)
      expect(results, 'each result answers its own call').to.deep.equal(ids)
      expect(h.warnings()).to.deep.equal([])
    })
  })

  describe('tool calls left in the text (SPEC §11)', () => {
    for (const strayText of ['remind', 'send']) {
      it(`native mode (strayText ${strayText}): <tool_call> blocks in the content are run; the markup never reaches the chat`, async () => {
        h = await Harness.start({ profile: { strayText } })
        h.server.script({ content: 'Sure.\n<tool_call>\n{"name": "send_message", "arguments": {"messages": ["hi from the text"]}}\n</tool_call>' })
        await h.client('alice', 'room1').receive('<at id="514"/> hello')
        await h.until(() => h.sent.length === 1, 'the send')
        await h.settled()
        expect(h.sent.map(s => s.content)).to.deep.equal(['hi from the text'])
        expect(h.server.requests, 'the send closed the turn').to.have.length(1)
      })
    }

    it('a broken block is an invalid call the model is told about, and is not sent', async () => {
      h = await Harness.start({ profile: { strayText: 'send' } })
      h.server.script(
        { content: '<tool_call>{"name": "send_message", "arguments": {"messages": ["oops"</tool_call>' },
        { toolCalls: [say('fixed')] },
      )
      await h.client('alice', 'room1').receive('<at id="514"/> hello')
      await h.until(() => h.sent.length === 1, 'the send')
      await h.settled()
      expect(h.sent.map(s => s.content)).to.deep.equal(['fixed'])
      expect(requestText(h.server.requests[1])).to.match(/Invalid tool call/)
    })
  })

  describe('failures in their own words (SPEC §11)', () => {
    it('a refused connection is logged as refused, not as a timeout, and stored on the turn', async () => {
      const port = await freePort()
      h = await Harness.start({ model: { baseURL: `http://127.0.0.1:${port}/v1` } })
      await h.client('alice', 'room1').receive('<at id="514"/> hello?')
      await h.until(() => h.warnings().some(w => /failed, the turn ends/.test(w)), 'the failed turn')
      const w = h.warnings().join('\n')
      expect(w).to.include(`connection refused (ECONNREFUSED 127.0.0.1:${port})`)
      expect(w).to.not.match(/timeout/i)
      const history = await readHistoryWhen(h, 'group:room1', r => r.entries.some(e => e.type === 'failure'))
      expect(history.entries.find(e => e.type === 'failure')).to.include({ model: 'main', turn: 1 })
      expect(history.entries.find(e => e.type === 'failure').error).to.include('connection refused')
    })
  })
})
