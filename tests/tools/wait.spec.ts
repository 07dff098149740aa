// The wait tool (SPEC §15): a turn ends with a wake-up after some seconds or some messages, which a new turn cancels.
import { expect } from 'chai'
import { Harness, call, NO_TYPING } from '../support/harness'
import { lastUserText, toolResultsOf } from '../support/fake-openai'
import { fakeClock, type InstalledClock } from '../support/fake-clock'

describe('wait: the next wake-up', function () {
  let h: Harness
  let clock: InstalledClock | undefined
  const installClock = fakeClock()
  afterEach(async () => { await h?.stop() })

  async function start() {
    h = await Harness.start({ profile: { typing: NO_TYPING } })
    clock = installClock({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: false })
  }

  it('wait({messages: 2}) wakes after two more facts, once, with a note', async () => {
    await start()
    h.server.script({ toolCalls: [call('wait', { messages: 2 })] }, { toolCalls: [call('finish', {})] })
    const alice = h.client('alice', 'room1')
    await alice.receive('<at id="514"/> wait for the others')
    await h.server.waitForRequests(1)
    await h.settled()
    await alice.receive('first other message')
    await h.idle(50)
    expect(h.server.requests).to.have.length(1)
    await alice.receive('second other message')
    await h.server.waitForRequests(2)
    const text = lastUserText(h.server.requests[1])
    expect(text).to.include('[wake: 2 new messages arrived since you chose to wait]')
    expect(text).to.include('second other message')
    expect(JSON.parse(toolResultsOf(h.server.requests[1])[0].content)).to.deep.equal({ ok: true, wait: { messages: 2 } })
    await h.settled()
    await alice.receive('third')
    await alice.receive('fourth')
    await h.idle(50)
    expect(h.server.requests).to.have.length(2)
  })

  it('wait({seconds}) wakes after the time', async () => {
    await start()
    h.server.script({ toolCalls: [call('wait', { seconds: 30 })] }, { toolCalls: [call('finish', {})] })
    await h.client('bob').receive('ping me in 30 s')
    await h.server.waitForRequests(1)
    await h.settled()
    await clock.tickAsync(29_000)
    await h.idle(30)
    expect(h.server.requests).to.have.length(1)
    await clock.tickAsync(1_500)
    await h.server.waitForRequests(2)
    expect(lastUserText(h.server.requests[1])).to.include('[wake: the 30 s you chose to wait have passed]')
  })

  it('a new turn cancels a pending wait', async () => {
    await start()
    h.server.script({ toolCalls: [call('wait', { seconds: 30, messages: 5 })] }, { toolCalls: [call('finish', {})] })
    const bob = h.client('bob')
    await bob.receive('wait a bit')
    await h.server.waitForRequests(1)
    await h.settled()
    const status = (await (await h.app.kotodama.list())[0].status())[0]
    expect(status.wait).to.deep.include({ seconds: 30, messages: 5, factsSeen: 0 })
    await bob.receive('actually, now')
    await h.server.waitForRequests(2)
    await h.settled()
    await clock.tickAsync(60_000)
    await h.idle(50)
    expect(h.server.requests).to.have.length(2)
    expect((await (await h.app.kotodama.list())[0].status())[0].wait).to.equal(undefined)
  })

  it('the last wait of a turn wins and an empty wait clears it', async () => {
    await start()
    h.server.script(
      { toolCalls: [call('wait', { seconds: 10 }), call('wait', {})] },
    )
    await h.client('bob').receive('hm')
    await h.server.waitForRequests(1)
    await h.settled()
    await clock.tickAsync(20_000)
    await h.idle(30)
    expect(h.server.requests).to.have.length(1)
  })

  it('a waking message that also fills the message window starts one turn, not two', async () => {
    await start()
    h.server.script({ toolCalls: [call('wait', { messages: 1 })] }, { toolCalls: [call('finish', {})] })
    const bob = h.client('bob')
    await bob.receive('wait for my next message')
    await h.server.waitForRequests(1)
    await h.settled()
    await bob.receive('here it is')
    await h.server.waitForRequests(2)
    await h.settled()
    await h.idle(50)
    expect(h.server.requests).to.have.length(2)
  })
})
