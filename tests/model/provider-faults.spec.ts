// SPEC §4.6 (model errors) and §10 (bad input loses nothing; secrets never logged or shown):
// faults of the model provider, each followed by normal turns that must still work.
import { expect } from 'chai'
import { Harness, call } from '../support/harness'
import type { FakeReply } from '../support/fake-openai'
import { lastUserText } from '../support/fake-openai'
import {
  disposeAndWait, factTexts, hasFactsInOrder, plugAgain, readHistoryWhen, reconfigureModel, requestText, requestUnansweredCalls, unansweredCalls,
} from '../support/faults'
import { tinyPng } from '../support/tiny-png'

const PNG = tinyPng(0, 1, 1)

/** Messages that reached the log at warn or error level and mention the model call. */
function modelWarnings(h: Harness): string[] {
  return h.warnings().filter(w => /model/i.test(w))
}

/**
 * The process is healthy after a fault: a mention in the same channel and one in another channel
 * each get a model request of their own and an answer. `sameSees` must be in the same channel's
 * request (facts stored before and during the failed turn).
 */
async function stillWorks(h: Harness, sameSees: string[]) {
  const before = h.server.requests.length
  const sentBefore = h.sent.length
  h.server.script({ toolCalls: [call('send_message', { messages: ['back in room1'] })] })
  await h.client('carol', 'room1').receive('<at id="514"/> are you back?')
  await h.server.waitForRequests(before + 1)
  const same = h.server.requests[before]
  const seen = requestText(same)
  for (const text of [...sameSees, 'are you back?']) expect(seen, `the next request of room1 shows "${text}"`).to.include(text)
  expect(requestUnansweredCalls(same), 'no tool call without its result in the next request').to.deep.equal([])
  await h.until(() => h.sent.length === sentBefore + 1, 'the answer in room1')
  expect(h.sent.at(-1)).to.deep.include({ channel: 'room1', content: 'back in room1' })
  await h.settled()

  h.server.script({ toolCalls: [call('send_message', { messages: ['hello room2'] })] })
  await h.client('dave', 'room2').receive('<at id="514"/> and here?')
  await h.server.waitForRequests(before + 2)
  const other = h.server.requests[before + 1]
  expect(lastUserText(other)).to.include('and here?')
  expect(requestText(other), 'room2 does not see room1').to.not.include('are you back?')
  await h.until(() => h.sent.length === sentBefore + 2, 'the answer in room2')
  expect(h.sent.at(-1)).to.deep.include({ channel: 'room2', content: 'hello room2' })
  await h.settled()
}

/** Every text is stored as a fact of room1, in this order, and no step is half done. */
async function historyKeeps(h: Harness, texts: string[]) {
  const history = await readHistoryWhen(h, 'group:room1', r => hasFactsInOrder(r, texts))
  expect(history.broken, 'every history line parses').to.deep.equal([])
  const facts = factTexts(history)
  let from = 0
  for (const t of texts) {
    const i = facts.findIndex((f, k) => k >= from && f.includes(t))
    expect(i, `fact "${t}" is stored (in order) in ${JSON.stringify(facts)}`).to.be.at.least(0)
    from = i + 1
  }
  expect(unansweredCalls(history), 'no tool call without its result on disk').to.deep.equal([])
}

/** Waits for a new warn/error log line that mentions the model; returns it. */
async function modelWarning(h: Harness, timeoutMs = 5000): Promise<string> {
  await h.until(() => modelWarnings(h).length > 0, 'a warning about the model call', timeoutMs)
  return modelWarnings(h)[0]
}

describe('faults: the model provider', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  for (const status of [500, 429]) {
    it(`a ${status} answer (maxRetries 0) ends the turn with a warning; nothing is lost and later turns work`, async () => {
      h = await Harness.start()
      h.server.script({ status, error: `scripted failure ${status}` })
      await h.client('alice', 'room1').receive(`<at id="514"/> first question ${status}`)
      await h.server.waitForRequests(1)
      const w = await modelWarning(h)
      expect(w).to.include('group:room1')
      expect(w).to.include(`scripted failure ${status}`)
      await h.settled()
      expect(h.sent).to.have.length(0)
      expect(h.server.requests).to.have.length(1)   // no retry with maxRetries 0
      await historyKeeps(h, [`first question ${status}`])
      await stillWorks(h, [`first question ${status}`])
      await historyKeeps(h, [`first question ${status}`, 'are you back?'])
      expect(h.warnings()).to.have.length(1)
    })

    it(`a ${status} answer with maxRetries 1 is retried and the retry's answer is used`, async () => {
      h = await Harness.start()
      await reconfigureModel(h, { maxRetries: 1 })
      h.server.script(
        { status, error: `scripted failure ${status}`, headers: { 'retry-after-ms': '20' } },
        { toolCalls: [call('send_message', { messages: ['answer after a retry'] })] },
      )
      await h.client('alice', 'room1').receive('<at id="514"/> please retry')
      await h.server.waitForRequests(2)
      await h.until(() => h.sent.length === 1, 'the answer')
      expect(h.sent[0]).to.deep.include({ channel: 'room1', content: 'answer after a retry' })
      expect(lastUserText(h.server.requests[1])).to.include('please retry')
      await h.settled()
      expect(h.server.requests).to.have.length(2)
      expect(h.warnings()).to.deep.equal([])
      await historyKeeps(h, ['please retry'])
      await stillWorks(h, ['please retry', 'answer after a retry'])
    })
  }

  const cuts: [string, FakeReply][] = [
    ['the connection closes in the middle of the JSON body', { cut: true, toolCalls: [call('send_message', { messages: ['never arrives'] })] }],
    ['the body ends cleanly but its JSON is unfinished', { truncateAt: 60, toolCalls: [call('send_message', { messages: ['never arrives'] })] }],
  ]
  for (const [what, reply] of cuts) {
    it(`${what}: the turn ends with a warning, nothing half-done is stored, later turns work`, async () => {
      h = await Harness.start()
      h.server.script(reply)
      await h.client('alice', 'room1').receive('<at id="514"/> cut me off')
      await h.server.waitForRequests(1)
      const w = await modelWarning(h)
      expect(w).to.include('group:room1')
      await h.settled()
      expect(h.sent, 'the half-received send_message is not executed').to.have.length(0)
      await historyKeeps(h, ['cut me off'])
      await stillWorks(h, ['cut me off'])
      expect(h.sent.map(s => s.content)).to.not.include('never arrives')
    })
  }

  it('a response that never comes ends the turn with a warning within about timeoutMs', async () => {
    h = await Harness.start()
    const timeoutMs = 600
    await reconfigureModel(h, { timeoutMs })
    h.server.script({ hang: true })
    await h.client('alice', 'room1').receive('<at id="514"/> are you stuck?')
    await h.server.waitForRequests(1)
    const asked = Date.now()
    const w = await modelWarning(h, timeoutMs + 3000)
    const took = Date.now() - asked
    console.log(`      (hang: the warning came ${took} ms after the request, timeoutMs ${timeoutMs}: ${w})`)
    // measured from when the server saw the request, not from when the client's timer started
    expect(took).to.be.within(timeoutMs / 2, timeoutMs + 2000)
    expect(w).to.include('group:room1')
    await h.settled(2000)
    await historyKeeps(h, ['are you stuck?'])
    await stillWorks(h, ['are you stuck?'])
  })

  it('the plugin is disposed promptly while a model request hangs; history is intact', async () => {
    h = await Harness.start()   // timeoutMs 10000
    h.server.script({ hang: true })
    await h.client('alice', 'room1').receive('<at id="514"/> hold on')
    await h.server.waitForRequests(1)
    await h.client('bob', 'room1').receive('a fact during the hanging call')
    await h.idle(50)
    const took = await disposeAndWait(h, 3000)
    console.log(`      (dispose during a hanging request took ${took} ms)`)
    expect(took).to.be.below(1000)
    await historyKeeps(h, ['hold on', 'a fact during the hanging call'])
    await plugAgain(h)
    await stillWorks(h, ['hold on', 'a fact during the hanging call'])
    expect(h.warnings(), 'stopping is not a model failure').to.deep.equal([])
  })

  it('facts that arrived before and during a failed turn are stored and shown in the next request', async () => {
    h = await Harness.start()
    await h.client('alice', 'room1').receive('a quiet fact before the turn')
    h.server.script({ status: 500, error: 'scripted failure', delayMs: 300 })
    await h.client('bob', 'room1').receive('<at id="514"/> the waking fact')
    await h.server.waitForRequests(1)
    await h.client('erin', 'room1').receive('a fact during the failing call')
    await modelWarning(h)
    await h.settled()
    await historyKeeps(h, ['a quiet fact before the turn', 'the waking fact', 'a fact during the failing call'])
    await stillWorks(h, ['a quiet fact before the turn', 'the waking fact', 'a fact during the failing call'])
    await historyKeeps(h, ['a quiet fact before the turn', 'the waking fact', 'a fact during the failing call', 'are you back?'])
  })

  describe('a provider error that echoes the API key (SPEC §10: every secret is *** in logs and model-visible text)', () => {
    const KEY = 'sk-test-kotodama-0123456789abcdefSECRET'
    const echo = `Incorrect API key provided: ${KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`

    it('a 401 of the main model: the key is in no log line and in no later request body; it shows as ***', async () => {
      h = await Harness.start()
      await reconfigureModel(h, { apiKey: KEY })
      h.server.script({ status: 401, error: echo })
      await h.client('alice', 'room1').receive('<at id="514"/> who am I talking to?')
      await h.server.waitForRequests(1)
      expect(h.server.requests[0].headers.authorization).to.equal(`Bearer ${KEY}`)   // the key is configured and used
      const w = await modelWarning(h)
      await h.settled()
      await stillWorks(h, ['who am I talking to?'])
      const leaking = h.logs.filter(l => l.text.includes(KEY)).map(l => `${l.level}: ${l.text}`)
      expect(leaking, 'log lines that contain the API key').to.deep.equal([])
      expect(w, 'the warning still says what went wrong, with the key masked').to.include('Incorrect API key provided: ***')
      for (const r of h.server.requests) expect(JSON.stringify(r.body), `request #${r.index} body`).to.not.include(KEY)
    })

    it('a 401 of the vision model: the read result the main model sees has the key as ***', async () => {
      h = await Harness.start({ profile: { attachment: { visionModel: 'main' } } })
      await reconfigureModel(h, { apiKey: KEY })
      let asset = ''
      h.server.script(
        (req) => {
          asset = /asset:\/\/[0-9a-f-]{36}/.exec(lastUserText(req))?.[0] ?? 'asset://missing'
          return { toolCalls: [call('read', { url: `${asset}?question=what is it?` })] }
        },
        { status: 401, error: echo },                      // the vision request
        { toolCalls: [call('finish', {})] },
      )
      await h.client('alice', 'room1').receive(`what is this <img src="data:image/png;base64,${PNG.toString('base64')}"/> <at id="514"/>`)
      await h.server.waitForRequests(3)
      await h.settled()
      const shown = requestText(h.server.requests[2])
      expect(shown, 'the model is told the vision request failed').to.include('vision_failed')
      const leaking = h.logs.filter(l => l.text.includes(KEY)).map(l => `${l.level}: ${l.text}`)
      expect(leaking, 'log lines that contain the API key').to.deep.equal([])
      expect(shown, 'the tool result shown to the model').to.not.include(KEY)
      expect(shown).to.include('Incorrect API key provided: ***')
    })
  })
})
