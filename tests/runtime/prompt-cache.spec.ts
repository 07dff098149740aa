// Requests laid out for prompt caches (SPEC §16): a system prompt without a clock, the time in the
// newest message, and a history window trimmed in blocks so consecutive requests share a prefix.
import { expect } from 'chai'
import { Harness, call, NO_TYPING } from '../support/harness'
import { lastUserText, messagesOf, type RecordedRequest } from '../support/fake-openai'
import { requestUnansweredCalls } from '../support/faults'
import { fakeClock, type InstalledClock } from '../support/fake-clock'
import { turnLine } from '../../src/runtime/request/turn-line'
import { TRIMMED_NOTE } from '../../src/runtime/request/build-request'

/** The history of a request: its messages after the system prompt. */
const historyOf = (req: RecordedRequest) => messagesOf(req).slice(1)
const json = (v: unknown) => JSON.stringify(v)
/** `before` is a prefix of `after` */
const repeats = (before: any[], after: any[]) => after.length >= before.length && json(after.slice(0, before.length)) === json(before)

/** Every tool message answers a call of an assistant message before it in the same request. */
function callsBeforeResults(req: RecordedRequest): boolean {
  const called = new Set<string>()
  for (const m of messagesOf(req)) {
    if (m.role === 'assistant') for (const c of m.tool_calls ?? []) called.add(c.id)
    if (m.role === 'tool' && !called.has(m.tool_call_id)) return false
  }
  return true
}

describe('prompt cache layout (SPEC §16)', function () {
  let h: Harness
  let clock: InstalledClock | undefined
  const installClock = fakeClock()
  afterEach(async () => { await h?.stop() })

  it('the system prompt is the same minutes apart; the time is in the newest message, and stays in the history', async () => {
    h = await Harness.start({ profile: { typing: NO_TYPING } })
    clock = installClock({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: false, now: Date.UTC(2026, 11, 1, 13, 21, 30) })
    h.server.script({ toolCalls: [call('finish', {})] }, { toolCalls: [call('finish', {})] })
    const bob = h.client('bob')
    await bob.receive('good afternoon')
    await h.server.waitForRequests(1)
    await h.settled()
    const first = Date.now()
    await clock.tickAsync(7 * 60_000)
    await bob.receive('still there?')
    await h.server.waitForRequests(2)
    await h.settled()
    const [one, two] = h.server.requests
    expect(messagesOf(two)[0]).to.deep.equal(messagesOf(one)[0])
    expect(messagesOf(one)[0].content).to.not.match(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/)
    expect(json(two.body.tools)).to.equal(json(one.body.tools))
    // each turn's request ends with the time that turn began
    expect(lastUserText(one).endsWith(`\n${turnLine(first, '')}`)).to.equal(true)
    expect(lastUserText(two).endsWith(`\n${turnLine(Date.now(), '')}`)).to.equal(true)
    expect(turnLine(Date.now(), '')).to.not.equal(turnLine(first, ''))
    // and the second request repeats the first one whole: the older time line did not change
    expect(repeats(messagesOf(one), messagesOf(two))).to.equal(true)
  })

  /** A private chat of `n` messages, each answered by one send; the requests it made. */
  async function chat(n: number, context: Record<string, number>): Promise<RecordedRequest[]> {
    h = await Harness.start({ profile: { context: { maxMessages: 20, maxChars: 60_000, ...context } } })
    h.server.fallback(req => ({ toolCalls: [call('send_message', { messages: [`you said: ${lastUserText(req).split('\n')[0].slice(-12)}`] })] }))
    const bob = h.client('bob')
    for (let i = 1; i <= n; i++) {
      await bob.receive(`message number ${i}, with a few words more`)
      await h.server.waitForRequests(i)
      await h.settled()
    }
    return h.server.requests
  }

  it('with a full window, consecutive requests share their history except right after a cut', async () => {
    const requests = await chat(18, { trimTo: 0.5 })
    let cuts = 0
    let cutSince = -1
    for (let i = 1; i < requests.length; i++) {
      const [before, after] = [historyOf(requests[i - 1]), historyOf(requests[i])]
      expect(requestUnansweredCalls(requests[i])).to.deep.equal([])
      expect(callsBeforeResults(requests[i])).to.equal(true)
      if (repeats(before, after)) continue
      cuts++
      if (cutSince < 0) cutSince = i
      // cut back to about half: 20 counted messages are 10 (a turn: fact, opening, call, result)
      expect(after.length).to.be.below(before.length)
      expect(after.filter(m => m.content !== TRIMMED_NOTE).length).to.be.at.most(8)
      expect(after[0].content).to.equal(TRIMMED_NOTE)
    }
    // 5 turns fill the window, then a cut every ~3 turns: far fewer cuts than requests
    expect(cuts).to.be.within(3, 6)
    // the note on the trimmed history is the same in every request after the first cut
    expect(requests.slice(cutSince).every(r => historyOf(r)[0].content === TRIMMED_NOTE)).to.equal(true)
  })

  it('trimTo 1 slides by one turn each request (the layout before SPEC §16)', async () => {
    const requests = await chat(10, { trimTo: 1 })
    const shared = requests.slice(1).map((r, i) => repeats(historyOf(requests[i]), historyOf(r)))
    // the first requests grow the window; once it is full, none repeats the one before
    expect(shared.slice(0, 4).every(Boolean)).to.equal(true)
    expect(shared.slice(5).some(Boolean)).to.equal(false)
  })
})
