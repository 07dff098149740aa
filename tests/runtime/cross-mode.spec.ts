import { expect } from 'chai'
import { Harness, call, FAST_TYPING } from '../support/harness'
import { lastUserText, toolResultsOf } from '../support/fake-openai'

describe('cross mode', function () {
  let h: Harness
  afterEach(async () => { await h?.stop() })

  const profile = {
    id: 'hub', persona: 'You are the hub.', model: 'main', mode: 'cross', typing: FAST_TYPING,
    claims: [
      { bot: 'mock:514', channels: ['group:room*', '!group:room2', '!room9', 'private:*'] },
      { bot: 'mock:777', channels: ['room9'] },
    ],
  }

  it('refuses a missing or unclaimed target and sends to a claimed one on the right bot', async () => {
    h = await Harness.start({ profiles: [profile], bots: ['777'] })
    h.server.script(
      { toolCalls: [call('send_message', { messages: ['no target'] })] },
      { toolCalls: [call('send_message', { messages: ['excluded'], target: { channel: 'group:room2' } })] },
      { toolCalls: [call('send_message', { messages: ['wrong bot'], target: { channel: 'group:room9' } })] },
      { toolCalls: [call('send_message', { messages: ['over there'], target: { channel: 'group:room9', bot: 'mock:777' } })] },
    )
    await h.client('alice', 'room1').receive('<at id="514"/> tell room9 hello')
    await h.server.waitForRequests(4)
    await h.settled()
    const req = h.server.requests[0]
    expect(lastUserText(req)).to.include('[channel bot="mock:514" channel="group:room1"]')
    const results = [1, 2, 3].map(i => JSON.parse(toolResultsOf(h.server.requests[i]).at(-1).content))
    expect(results[0].error.name).to.equal('TargetRequired')
    expect(results[1].error.name).to.equal('InvalidTarget')
    expect(results[2].error.name).to.equal('InvalidTarget')
    expect(results.every(r => r.ok === false && r.sent.length === 0 && r.failedAt === 0)).to.equal(true)
    expect(h.sent).to.deep.equal([{ bot: 'mock:777', channel: 'room9', content: 'over there', at: h.sent[0].at }])
  })

  it('one conversation covers all claimed channels with a header per run of facts', async () => {
    h = await Harness.start({ profiles: [profile] })
    await h.client('alice', 'room1').receive('in room1')
    await h.client('bob', 'room3').receive('in room3')
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('carol').receive('privately')
    await h.server.waitForRequests(1)
    const text = lastUserText(h.server.requests[0])
    const lines = text.split('\n')
    const i1 = lines.findIndex(l => l.includes('channel="group:room1"'))
    const i3 = lines.findIndex(l => l.includes('channel="group:room3"'))
    const ip = lines.findIndex(l => l.includes('channel="private:carol"'))
    expect(i1).to.be.greaterThan(-1)
    expect(i3).to.be.greaterThan(i1)
    expect(ip).to.be.greaterThan(i3)
    expect(lines[i1 + 1]).to.include('in room1')
    const runtimes = await h.app.kotodama.list()
    expect((await runtimes[0].status()).map(c => c.key)).to.deep.equal(['cross'])
  })

  it('a bad target bot is refused as malformed or unavailable', async () => {
    h = await Harness.start({ profiles: [{ ...profile, claims: [{ bot: '*', channels: ['*'] }] }] })
    h.server.script(
      { toolCalls: [call('send_message', { messages: ['x'], target: { channel: 'group:room1', bot: 'nocolon' } })] },
      { toolCalls: [call('send_message', { messages: ['x'], target: { channel: 'group:room1', bot: 'mock:999' } })] },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('alice', 'room1').receive('<at id="514"/> go')
    await h.server.waitForRequests(3)
    const [r1, r2] = [1, 2].map(i => JSON.parse(toolResultsOf(h.server.requests[i]).at(-1).content))
    expect(r1.error, JSON.stringify(r1)).to.deep.include({ name: 'InvalidTarget' })
    expect(r2.error, JSON.stringify(r2)).to.deep.include({ name: 'BotUnavailable' })
    expect(h.sent).to.have.length(0)
  })
})
