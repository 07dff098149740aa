// Loops cost nothing (SPEC §22 "Loops cost nothing", issue 36 finding 10): one mention and a model
// that answers every wake with a read and `wait({seconds: 1})` makes at most maxSelfWakes + 1 turns
// however long nobody writes, across a restart too; a person writing opens it again; the cooldown
// delays a wait's wake (never drops it); other bots and ignored users neither fill a wait nor wake.
import { expect } from 'chai'
import { Harness, call, NO_DEBOUNCE, NO_TYPING, typingBetween, type HarnessOptions } from '../support/harness'
import { messagesOf, toolResultsOf, type RecordedRequest } from '../support/fake-openai'
import { readHistoryWhen } from '../support/faults'
import { fakeClock, type InstalledClock } from '../support/fake-clock'

/** A model that looks around and then waits a second, at every wake. */
function looping(req: RecordedRequest) {
  const last = messagesOf(req).at(-1)
  return last?.role === 'tool' ? { toolCalls: [call('wait', { seconds: 1 })] } : { toolCalls: [call('read', { url: 'local://' })] }
}

/** Requests that opened a turn (the model's first step of it). */
const turnsOf = (requests: RecordedRequest[]) => requests.filter(r => messagesOf(r).at(-1)?.role !== 'tool').length

const waitResults = (req: RecordedRequest) => toolResultsOf(req).map(r => r.content).filter(c => c.includes('"wait"') || c.includes('WaitRefused'))

describe('loops cost nothing (SPEC §22)', function () {
  this.timeout(30000)
  let h: Harness
  let clock: InstalledClock | undefined
  const installClock = fakeClock()
  afterEach(async () => { await h?.stop() })

  async function start(o: HarnessOptions = {}) {
    h = await Harness.start({ profile: { typing: NO_TYPING }, ...o })
    clock = installClock({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.now(), shouldAdvanceTime: false, shouldClearNativeTimers: true })
  }

  /** Lets `seconds` of faked time pass, a second at a time, each wake's turn run to its end. */
  async function pass(seconds: number) {
    for (let s = 0; s < seconds; s++) {
      await clock!.tickAsync(1000)
      await h.idle(5)
      await h.settled()
    }
  }

  it('one mention, then a minute of nobody writing: at most maxSelfWakes + 1 turns; the last wait is refused with why', async () => {
    await start()
    h.server.fallback(looping)
    await h.client('alice', 'room1').receive('<at id="514"/> keep an eye on the folder')
    await h.server.waitForRequests(2)
    await h.settled()
    await pass(60)
    expect(turnsOf(h.server.requests), 'turns in a minute').to.equal(3 + 1)
    const history = await readHistoryWhen(h, 'group:room1', r => r.entries.filter(e => e.type === 'turn').length === 4)
    expect(history.entries.filter(e => e.type === 'turn').map(e => (e as any).reason)).to.deep.equal(['mention', 'wait:time', 'wait:time', 'wait:time'])
    expect(history.entries.filter(e => e.type === 'wait')).to.have.length(3)
    const before = h.server.requests.length

    // a person writes: the mind may wait again, and reads why its last wait was refused
    await h.client('bob', 'room1').receive('<at id="514"/> anything new?')
    await h.server.waitForRequests(before + 1)
    const refused = waitResults(h.server.requests[before]).map(c => JSON.parse(c)).find(r => r.ok === false)
    expect(refused?.error?.name).to.equal('WaitRefused')
    expect(refused.error.message).to.include('3 turns in a row started without anyone writing').and.include('You wake again when someone writes to you')
    await h.settled()
    await pass(60)
    expect(turnsOf(h.server.requests.slice(before)), 'turns after the person wrote').to.equal(3 + 1)
  })

  it('maxSelfWakes 0: the first wait is refused, no wake-up follows', async () => {
    await start({ profile: { typing: NO_TYPING, timing: { ...NO_DEBOUNCE, maxSelfWakes: 0 } } })
    h.server.fallback(looping)
    await h.client('alice').receive('wake me in a second')
    await h.server.waitForRequests(2)
    await h.settled()
    await pass(10)
    expect(h.server.requests).to.have.length(2)
  })

  it('a restart in the middle of the loop does not start it again: the count is read from the history', async () => {
    await start()
    h.server.fallback(looping)
    await h.client('alice', 'room1').receive('<at id="514"/> keep an eye on the folder')
    await h.server.waitForRequests(2)
    await h.settled()
    await pass(1)
    expect(turnsOf(h.server.requests)).to.equal(2)
    await h.reload()
    await pass(60)
    expect(turnsOf(h.server.requests), 'turns, before and after the restart').to.equal(3 + 1)
  })

  it('cooldownSeconds delays a wait\'s wake-up to the end of the cooldown; it is not dropped', async () => {
    await start({ profile: { typing: NO_TYPING, timing: { ...NO_DEBOUNCE, cooldownSeconds: 5 } } })
    h.server.script({ toolCalls: [call('wait', { seconds: 1 })] }, { toolCalls: [call('finish', {})] })
    await h.client('alice').receive('check again in a second')
    await h.server.waitForRequests(1)
    await h.settled()
    await pass(4)
    expect(h.server.requests, 'within the cooldown').to.have.length(1)
    await pass(2)
    expect(h.server.requests, 'after the cooldown').to.have.length(2)
    expect(JSON.stringify(messagesOf(h.server.requests[1]))).to.include('the 1 s you chose to wait have passed')
  })
})

describe('other bots and ignored users (SPEC §22)', function () {
  this.timeout(30000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('wait({messages: 1}) is not filled by another bot\'s messages (fromBots off); a person\'s message fills it', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('wait', { messages: 1 })] }, { toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive('<at id="514"/> tell me when someone answers')
    await h.server.waitForRequests(1)
    await h.settled()
    const other = h.client('otherbot', 'room1')
    other.event.user.isBot = true
    for (let i = 0; i < 5; i++) await other.receive(`beep ${i}`)
    await h.idle(200)
    expect(h.server.requests, 'the other bot pinged five times').to.have.length(1)
    await h.client('carol', 'room1').receive('I answer')
    await h.server.waitForRequests(2)
  })

  it('with wake.fromBots, turns another bot\'s mentions wake count as turns nobody woke: the third one may not wait', async () => {
    h = await Harness.start({ profile: { wake: { fromBots: true } } })
    h.server.fallback({ toolCalls: [call('wait', { seconds: 600 })] })
    await h.client('alice', 'room1').receive('<at id="514"/> talk to the other bot')
    await h.server.waitForRequests(1)
    await h.settled()
    const other = h.client('otherbot', 'room1')
    other.event.user.isBot = true
    for (let i = 1; i <= 4; i++) {
      await other.receive(`<at id="514"/> your turn ${i}`)
      await h.server.waitForRequests(i + 1)
      await h.settled()
    }
    const results = h.server.requests.slice(2).map(r => JSON.parse(toolResultsOf(r).at(-1)!.content))
    expect(results.map(r => r.ok)).to.deep.equal([true, true, false])
    expect(results[2].error.name).to.equal('WaitRefused')
  })

  it('with timing.yield any, another bot\'s or an ignored user\'s message does not stop a send still typing', async () => {
    h = await Harness.start({ profile: { typing: typingBetween(300), timing: { ...NO_DEBOUNCE, yield: 'any' }, wake: { ignoreUsers: ['qqbot'] } } })
    h.server.script({ toolCalls: [call('send_message', { messages: ['one', 'two', 'three', 'four'] })] }, { toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive('<at id="514"/> count to four')
    await h.until(() => h.sent.length === 1, 'the first message')
    const other = h.client('otherbot', 'room1')
    other.event.user.isBot = true
    await other.receive('beep')
    await h.client('qqbot', 'room1').receive('auto reply')
    await h.until(() => h.sent.length === 4, 'all four')
    expect(h.sent.map(s => s.content)).to.deep.equal(['one', 'two', 'three', 'four'])
  })

  it('wake.ignoreUsers: 20 messages (mentions too) start no turn and fill no wait; they are stored, held as ignored', async () => {
    h = await Harness.start({ profile: { wake: { ignoreUsers: ['qqbot', 'mock:otherbot'] } } })
    h.server.script({ toolCalls: [call('wait', { messages: 1 })] }, { toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive('<at id="514"/> wait for an answer')
    await h.server.waitForRequests(1)
    await h.settled()
    for (let i = 0; i < 10; i++) await h.client('qqbot', 'room1').receive(`<at id="514"/> auto reply ${i}`)
    for (let i = 0; i < 10; i++) await h.client('otherbot', 'room1').receive(`ping ${i}`)
    await h.idle(300)
    expect(h.server.requests).to.have.length(1)
    const history = await readHistoryWhen(h, 'group:room1', r => r.entries.filter(e => e.type === 'fact').length === 21)
    expect(history.entries.filter(e => e.type === 'fact' && e.held === 'ignored')).to.have.length(10)
    await h.client('carol', 'room1').receive('a person')
    await h.server.waitForRequests(2)
  })
})
