// SPEC §10 (last bullet) and §2: a plugin reload in the middle of a send and of a model call. The
// old runtime finishes its sends and writes; the new runtime of the same home waits for it, so
// the next request shows the finished send_message call with its result, and nothing half-done.
import { expect } from 'chai'
import { Harness, call, typingBetween } from '../support/harness'
import { messagesOf } from '../support/fake-openai'
import { factTexts, hasFactsInOrder, readHistoryWhen, requestText, requestUnansweredCalls, unansweredCalls } from '../support/faults'

const TYPING_1500 = typingBetween(1500)

describe('faults: a plugin reload in the middle of a turn', function () {
  this.timeout(25000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('during a send: both messages are delivered once, and the next request shows the call and its result', async () => {
    h = await Harness.start({ profile: { typing: TYPING_1500 } })
    let respondedAt = 0
    h.server.script(() => {
      respondedAt = Date.now()
      return { toolCalls: [call('send_message', { messages: ['first of two', 'second of two'] })] }
    })
    await h.client('alice', 'room1').receive('<at id="514"/> please say two things')
    await h.until(() => respondedAt > 0, 'the first model response')
    await h.until(() => Date.now() >= respondedAt + 300, '300 ms after the response')
    expect(h.sent, 'still typing the first message').to.have.length(0)
    await h.reload()

    // a new mention right away: the new runtime must wait for the old one's sends and writes
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob', 'room1').receive('<at id="514"/> did you say it?')
    await h.until(() => h.sent.length === 2, 'both messages', 8000)
    await h.server.waitForRequests(2, 8000)
    await h.settled()
    expect(h.sent.map(s => s.content), 'each message exactly once, in order').to.deep.equal(['first of two', 'second of two'])

    const next = h.server.requests[1]
    const msgs = messagesOf(next)
    const ai = msgs.findIndex(m => m.role === 'assistant' && m.tool_calls?.some((c: any) => c.function?.arguments?.includes('first of two')))
    expect(ai, `the next request shows the send_message call: ${requestText(next).slice(0, 2000)}`).to.be.at.least(0)
    const id = msgs[ai].tool_calls[0].id
    const result = msgs.find(m => m.role === 'tool' && m.tool_call_id === id)
    expect(result, 'and its result').to.not.equal(undefined)
    expect(JSON.parse(result.content)).to.deep.include({ ok: true })
    expect(JSON.parse(result.content).ids).to.have.length(2)
    expect(requestUnansweredCalls(next)).to.deep.equal([])
    expect(requestText(next)).to.include('please say two things')
    expect(requestText(next)).to.include('did you say it?')

    const history = await readHistoryWhen(h, 'group:room1', r =>
      hasFactsInOrder(r, ['please say two things', 'did you say it?']) && JSON.stringify(r.entries).includes(id))
    expect(history.broken).to.deep.equal([])
    expect(unansweredCalls(history)).to.deep.equal([])
    const steps = history.entries.filter(e => e.type === 'step' && JSON.stringify(e.messages).includes(id))
    expect(steps, 'the send is stored once').to.have.length(1)
    const facts = factTexts(history)
    expect(facts.filter(f => f.includes('please say two things'))).to.have.length(1)
    expect(facts.filter(f => f.includes('did you say it?'))).to.have.length(1)
    expect(h.sent, 'nothing more was sent').to.have.length(2)
  })

  it('during a hanging model call: no half-done step, the facts are there, and a new mention works', async () => {
    h = await Harness.start({ profile: { typing: TYPING_1500 } })
    h.server.script({ delayMs: 2000, toolCalls: [call('send_message', { messages: ['too late'] }, 'call_late')] })
    await h.client('alice', 'room1').receive('<at id="514"/> a slow question')
    await h.server.waitForRequests(1)
    const asked = Date.now()
    await h.client('carol', 'room1').receive('a fact during the slow call')
    await h.until(() => Date.now() >= asked + 300, '300 ms into the call')
    await h.reload()

    h.server.script({ toolCalls: [call('send_message', { messages: ['here now'] }, 'call_now')] })
    await h.client('bob', 'room1').receive('<at id="514"/> are you there now?')
    await h.server.waitForRequests(2, 8000)
    const next = h.server.requests.at(-1)
    for (const t of ['a slow question', 'a fact during the slow call', 'are you there now?']) expect(requestText(next)).to.include(t)
    expect(requestUnansweredCalls(next), 'no tool call without its result').to.deep.equal([])
    expect(requestText(next)).to.not.include('call_late')
    await h.until(() => h.sent.length === 1, 'the answer', 6000)
    await h.settled()
    // the aborted call's reply would have come 2 s after it was asked; it must not be acted on
    await h.until(() => Date.now() >= asked + 2500, 'past the hanging reply')
    await h.settled()
    expect(h.sent.map(s => s.content)).to.deep.equal(['here now'])

    const history = await readHistoryWhen(h, 'group:room1', r =>
      hasFactsInOrder(r, ['a slow question', 'a fact during the slow call', 'are you there now?']) && JSON.stringify(r.entries).includes('here now'))
    expect(history.broken).to.deep.equal([])
    expect(unansweredCalls(history), 'no half-done step on disk').to.deep.equal([])
    expect(JSON.stringify(history.entries)).to.not.include('call_late')
    const facts = factTexts(history)
    for (const t of ['a slow question', 'a fact during the slow call', 'are you there now?']) {
      expect(facts.filter(f => f.includes(t)), `fact "${t}" stored once`).to.have.length(1)
    }
    expect(h.logs.filter(l => l.level === 'error').map(l => l.text)).to.deep.equal([])
  })
})
