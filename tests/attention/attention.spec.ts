// Attention and timing in busy chats (SPEC §15, issue 20), through Koishi with plugin-mock and the
// real AI SDK provider talking HTTP to the fake server: bursts, yielding while typing, backlogs,
// other bots, names, cooldown, perUser and the judge.
import { expect } from 'chai'
import { Harness, call, typingBetween } from '../support/harness'
import { FakeOpenAI, lastUserText, toolResultsOf } from '../support/fake-openai'
import { readHistoryWhen, requestText } from '../support/faults'

const say = (...messages: string[]) => call('send_message', { messages })
const TYPING_300 = typingBetween(300)
const BURST = { debounceMs: 300, debounceMaxMs: 900 }

/** The user messages of a request, in order, as one text. */
const chatOf = (h: Harness, i: number) => requestText(h.server.requests[i])

describe('attention and timing in busy chats (SPEC §15)', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  describe('bursts', () => {
    it('five messages in a burst are one turn and one request, all five in order', async () => {
      h = await Harness.start({ profile: { timing: BURST } })
      h.server.fallback({ toolCalls: [say('got all of it')] })
      const lines = ['<at id="514"/> so', 'about the trip', '<at id="514"/> we leave friday', 'bring a coat', 'and snacks']
      for (const [i, text] of lines.entries()) {
        await h.client(i % 2 ? 'bob' : 'alice', 'room1').receive(text)
        await h.idle(60)
      }
      await h.until(() => h.sent.length === 1, 'the answer')
      await h.idle(600)
      await h.settled()
      expect(h.server.requests).to.have.length(1)
      const text = chatOf(h, 0)
      let at = -1
      for (const l of ['so', 'about the trip', 'we leave friday', 'bring a coat', 'and snacks']) {
        const i = text.indexOf(l, at + 1)
        expect(i, `"${l}" after the one before`).to.be.greaterThan(at)
        at = i
      }
      const history = await readHistoryWhen(h, 'group:room1', r => r.entries.some(e => e.type === 'turn'))
      expect(history.entries.find(e => e.type === 'turn')).to.include({ merged: 2 })
    })

    it('a burst that never stops still starts a turn by debounceMaxMs', async () => {
      h = await Harness.start({ profile: { timing: { debounceMs: 300, debounceMaxMs: 800 } } })
      h.server.fallback({ toolCalls: [call('finish', {})] })
      const start = Date.now()
      let requestAt = 0
      h.server.guard(() => { requestAt ||= Date.now(); return undefined })
      for (let i = 0; i < 16; i++) {
        await h.client('alice', 'room1').receive(i ? `still talking ${i}` : '<at id="514"/> listen')
        await h.idle(100)
      }
      expect(requestAt, 'a request came during the burst').to.be.greaterThan(0)
      expect(requestAt - start).to.be.within(700, 1300)
    })

    it('the wait counts as thinking: the first message is not delayed by a typing pause on top of it', async () => {
      h = await Harness.start({ profile: { timing: { debounceMs: 600, debounceMaxMs: 2000 }, typing: typingBetween(500) } })
      h.server.script({ toolCalls: [say('hi')] })
      const start = Date.now()
      await h.client('alice').receive('hello?')
      await h.until(() => h.sent.length === 1, 'the answer')
      // 600 ms of waiting covered the 500 ms pause: the answer follows the request at once
      expect(h.sent[0].at - start).to.be.within(550, 1000)
    })
  })

  describe('yield: people keep talking while it types', () => {
    async function typingFour(yieldPolicy: string, interrupter: string, expectInterrupted: boolean) {
      h = await Harness.start({ profile: { typing: TYPING_300, timing: { debounceMs: 0, debounceMaxMs: 0, yield: yieldPolicy } } })
      h.server.script({ toolCalls: [say('one', 'two', 'three', 'four')] }, { toolCalls: [say('ok, you first')] })
      await h.client('alice', 'room1').receive('<at id="514"/> count to four')
      await h.until(() => h.sent.length === 1, 'the first message')
      await h.client('bob', 'room1').receive(interrupter)
      if (expectInterrupted) {
        await h.server.waitForRequests(2)
        await h.settled()
        const result = JSON.parse(toolResultsOf(h.server.requests[1])[0].content)
        expect(result).to.deep.include({ ok: false, failedAt: 1 })
        expect(result.error.name).to.equal('Interrupted')
        expect(result.sent).to.have.length(1)
        expect(chatOf(h, 1), 'the next request holds what was said').to.include(interrupter.replace('<at id="514"/> ', ''))
        expect(h.sent.map(s => s.content)).to.deep.equal(['one', 'ok, you first'])
      } else {
        await h.until(() => h.sent.length >= 4, 'all four')
        await h.settled()
        expect(h.sent.slice(0, 4).map(s => s.content)).to.deep.equal(['one', 'two', 'three', 'four'])
        // a mention it did not stop for is answered by the next turn, as always (SPEC §4.6)
        expect(h.sent.length).to.equal(interrupter.includes('<at') ? 5 : 4)
      }
    }

    it('addressed: a mention while it types stops the rest (Interrupted, sent, failedAt); the next request holds the mention', () =>
      typingFour('addressed', '<at id="514"/> wait, stop', true))
    it('addressed: a plain message does not interrupt', () => typingFour('addressed', 'just chatting', false))
    it('any: a plain message interrupts', () => typingFour('any', 'just chatting', true))
    it('never: not even a mention interrupts', () => typingFour('never', '<at id="514"/> wait, stop', false))

    it('inside a codemode program, the Interrupted result comes back to the program', async () => {
      h = await Harness.start({ profile: { typing: TYPING_300, codemode: { enabled: true } } })
      h.server.script(
        { toolCalls: [call('codemode', { code: 'const r = await tools.send_message({ messages: ["a", "b", "c"] }); return { r }' })] },
        { toolCalls: [call('finish', {})] },
      )
      await h.client('alice').receive('go')
      await h.until(() => h.sent.length === 1, 'the first message')
      await h.client('alice').receive('hold on')
      await h.server.waitForRequests(2)
      await h.settled()
      const shown = toolResultsOf(h.server.requests[1])[0].content
      expect(shown).to.include('Interrupted').and.match(/"failedAt":\s*1/)
      expect(h.sent.map(s => s.content)).to.deep.equal(['a'])
      expect(chatOf(h, 1)).to.include('hold on')
    })
  })

  describe('steer: what arrives during a turn is in its next step', () => {
    for (const mode of ['direct', 'codemode', 'hermes'] as const) {
      it(`${mode}: a message that arrives while a step runs is in the next request`, async () => {
        h = await Harness.start({
          profile: mode === 'codemode' ? { codemode: { enabled: true, direct: [] } } : {},
          model: mode === 'hermes' ? { toolCalls: 'hermes' } : {},
        })
        let release!: () => void
        const gate = new Promise<void>(r => release = r)
        const slowRead = mode === 'codemode'
          ? call('codemode', { code: 'return await tools.read({ url: "local://" })' })
          : call('read', { url: 'local://' })
        const reply = (c: ReturnType<typeof call>) => mode === 'hermes'
          ? { content: `<tool_call>${JSON.stringify({ name: c.name, arguments: c.arguments })}</tool_call>` }
          : { toolCalls: [c] }
        h.server.script(async () => { await gate; return reply(slowRead) }, reply(call('finish', {})))
        await h.client('alice').receive('look around')
        await h.server.waitForRequests(1)
        await h.client('alice').receive('also check the notes')
        release()
        await h.server.waitForRequests(2)
        await h.settled()
        expect(h.server.requests).to.have.length(2)
        expect(chatOf(h, 1)).to.include('also check the notes')
      })
    }
  })

  describe('who wakes it', () => {
    it('a backlog: thirty 20-minute-old messages wake nothing and are in the next fresh turn\'s request', async () => {
      h = await Harness.start()
      h.server.fallback({ toolCalls: [call('finish', {})] })
      const old = h.client('alice', 'room1')
      for (let i = 0; i < 30; i++) {
        old.event.timestamp = Date.now() - 20 * 60_000 + i
        await old.receive(`<at id="514"/> backlog ${i}`)
      }
      await h.idle(200)
      expect(h.server.requests).to.have.length(0)
      await h.client('bob', 'room1').receive('<at id="514"/> anyone home?')
      await h.server.waitForRequests(1)
      await h.settled()
      expect(h.server.requests).to.have.length(1)
      const text = chatOf(h, 0)
      for (const i of [0, 15, 29]) expect(text).to.include(`backlog ${i}`)
      const history = await readHistoryWhen(h, 'group:room1', r => r.entries.filter(e => e.type === 'fact').length === 31)
      expect(history.entries.filter(e => e.type === 'fact' && e.held === 'stale')).to.have.length(30)
    })

    it('another bot\'s mention wakes nothing; with wake.fromBots it does', async () => {
      h = await Harness.start()
      h.server.fallback({ toolCalls: [call('finish', {})] })
      const bot = h.client('otherbot', 'room1')
      bot.event.user.isBot = true
      await bot.receive('<at id="514"/> hello fellow bot')
      await h.idle(200)
      expect(h.server.requests).to.have.length(0)
      await h.stop()
      h = await Harness.start({ profile: { wake: { fromBots: true } } })
      h.server.fallback({ toolCalls: [call('finish', {})] })
      const again = h.client('otherbot', 'room1')
      again.event.user.isBot = true
      await again.receive('<at id="514"/> hello fellow bot')
      await h.server.waitForRequests(1)
    })

    it('wake.names count as a mention: any position, any case, a whole word or inside CJK text', async () => {
      h = await Harness.start({ profile: { wake: { names: ['Koto', '小言'] } } })
      h.server.fallback({ toolCalls: [call('finish', {})] })
      const cases: [string, boolean][] = [
        ['hey KOTO, come here', true], ['kotowari is a word', false], ['我觉得koto说得对', true], ['小言你好', true], ['nothing here', false],
      ]
      let expected = 0
      for (const [text, wakes] of cases) {
        await h.client('alice', 'room1').receive(text)
        await h.idle(120)
        await h.settled()
        if (wakes) expected++
        expect(h.server.requests.length, `"${text}"`).to.equal(expected)
      }
      const history = await readHistoryWhen(h, 'group:room1', r => r.entries.filter(e => e.type === 'fact').length === 5)
      expect(history.entries.filter(e => e.type === 'fact' && e.wake).map(e => e.wake)).to.deep.equal(['name:Koto', 'name:Koto', 'name:小言'])
    })
  })

  describe('cooldown and perUser: deferred and merged, never dropped', () => {
    it('cooldown: wakes in the cooldown are merged into one turn after it', async () => {
      h = await Harness.start({ profile: { timing: { debounceMs: 0, debounceMaxMs: 0, cooldownSeconds: 1 } } })
      h.server.fallback({ toolCalls: [call('finish', {})] })
      await h.client('alice', 'room1').receive('<at id="514"/> first')
      await h.server.waitForRequests(1)
      await h.settled()
      const ended = Date.now()
      await h.client('bob', 'room1').receive('<at id="514"/> second')
      await h.client('carol', 'room1').receive('<at id="514"/> third')
      await h.idle(300)
      expect(h.server.requests, 'nothing during the cooldown').to.have.length(1)
      await h.server.waitForRequests(2)
      expect(Date.now() - ended).to.be.at.least(900)
      await h.idle(300)
      await h.settled()
      expect(h.server.requests).to.have.length(2)
      expect(chatOf(h, 1)).to.include('second').and.include('third')
      const history = await readHistoryWhen(h, 'group:room1', r => r.entries.filter(e => e.type === 'turn').length === 2)
      expect(history.entries.filter(e => e.type === 'turn')[1]).to.include({ merged: 2 })
    })

    it('perUser: a person over the limit wakes nothing until the window passes; their messages are kept; others still wake it', async () => {
      h = await Harness.start({ profile: { timing: { debounceMs: 0, debounceMaxMs: 0, perUser: { count: 2, seconds: 60 } } } })
      h.server.fallback({ toolCalls: [call('finish', {})] })
      for (let i = 1; i <= 3; i++) {
        await h.client('alice', 'room1').receive(`<at id="514"/> alice ${i}`)
        await h.idle(100)
        await h.settled()
      }
      expect(h.server.requests).to.have.length(2)
      await h.client('bob', 'room1').receive('<at id="514"/> bob here')
      await h.server.waitForRequests(3)
      await h.settled()
      expect(chatOf(h, 2)).to.include('alice 3').and.include('bob here')
      const history = await readHistoryWhen(h, 'group:room1', r => r.entries.filter(e => e.type === 'fact').length === 4)
      expect(history.entries.filter(e => e.type === 'fact').map(e => e.held ?? e.wake)).to.deep.equal(['mention', 'mention', 'perUser', 'mention'])
    })
  })

  describe('the judge', () => {
    let judge: FakeOpenAI
    beforeEach(async () => { judge = await FakeOpenAI.start() })
    afterEach(async () => { await judge.close() })

    const start = () => Harness.start({
      profile: { wake: { keywords: ['pizza'], judge: 'small' } },
      extraModels: [{ id: 'small', baseURL: judge.baseURL, apiKey: 'sk-test-judge', model: 'tiny', maxRetries: 0, timeoutMs: 5000 }],
    })

    it('says no: no turn; the wake is recorded as declined; its tokens are counted', async () => {
      h = await start()
      judge.script({ content: 'no', usage: { prompt_tokens: 90, completion_tokens: 1 } })
      await h.client('alice', 'room1').receive('who wants pizza tonight')
      await judge.waitForRequests(1)
      await h.idle(200)
      expect(h.server.requests).to.have.length(0)
      expect(requestText(judge.requests[0])).to.include('who wants pizza tonight')
      const history = await readHistoryWhen(h, 'group:room1', r => r.entries.some(e => e.type === 'declined'))
      expect(history.entries.find(e => e.type === 'declined')).to.include({ reason: 'keyword:pizza' })
      const [runtime] = await h.app.kotodama.list()
      expect(runtime.usage.snapshot().find(m => m.model === 'small')?.today).to.include({ requests: 1, promptTokens: 90 })
    })

    it('says yes: the turn starts', async () => {
      h = await start()
      judge.script({ content: 'Yes.' })
      h.server.script({ toolCalls: [call('finish', {})] })
      await h.client('alice', 'room1').receive('who wants pizza tonight')
      await h.server.waitForRequests(1)
      // the judge model was asked about this message, once, and the turn is about it
      expect(judge.requests).to.have.length(1)
      expect(requestText(judge.requests[0])).to.include('who wants pizza tonight')
      expect(judge.requests[0].body.model).to.equal('tiny')
      expect(lastUserText(h.server.requests[0])).to.include('who wants pizza tonight')
    })

    it('never answers: after 1,500 ms that is a no', async () => {
      h = await start()
      judge.script({ hang: true })
      const t = Date.now()
      await h.client('alice', 'room1').receive('who wants pizza tonight')
      const history = await readHistoryWhen(h, 'group:room1', r => r.entries.some(e => e.type === 'declined'), 4000)
      expect(Date.now() - t).to.be.within(1400, 2500)
      expect(history.entries.find(e => e.type === 'declined').why).to.match(/did not answer within 1500 ms/)
      expect(h.server.requests).to.have.length(0)
    })

    it('a mention never asks the judge', async () => {
      h = await start()
      h.server.script({ toolCalls: [call('finish', {})] })
      await h.client('alice', 'room1').receive('<at id="514"/> pizza?')
      await h.server.waitForRequests(1)
      expect(judge.requests).to.have.length(0)
    })
  })
})

