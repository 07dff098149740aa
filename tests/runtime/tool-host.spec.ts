import { expect } from 'chai'
import { getEventListeners } from 'node:events'
import { ChannelMemory } from '../../src/runtime/channel-memory'
import { createToolHost } from '../../src/runtime/tool-host'
import type { OutboundMessage } from '../../src/runtime/types'
import { systemClock } from '../../src/util/clock'

describe('tool host', () => {
  const sends: OutboundMessage[] = []
  const channels = new ChannelMemory()
  const host = createToolHost({
    profile: { mode: 'channel', typing: {}, claims: [{ bot: '*', channels: ['*'] }] } as any, bot: 'x:1', clock: systemClock,
    platform: { isOnline: () => true, send: async m => { sends.push(m); return [`out-${sends.length}`] } }, random: Math.random,
    media: async () => { throw new Error('none') }, channels,
  }, { ownTarget: () => ({ bot: 'x:1', channel: 'group:1' }), serialize: t => t() })

  it('a send carries the message it answers: the latest one people sent in that channel', async () => {
    const fact = (id: string, channel: string, at: number) =>
      ({ id, at, bot: 'x:1', channel, direct: false, user: { id: 'u', name: 'U' }, content: 'hi', guildId: 'g1' })
    channels.heard(fact('m1', 'group:1', 1000))
    channels.heard(fact('m2', 'group:1', 2000))
    channels.heard(fact('m9', 'group:2', 3000))
    const target = host.resolveTarget({ channel: 'group:1' })
    expect(target).to.deep.equal({ bot: 'x:1', channel: 'group:1', guildId: 'g1' })
    const ids = await host.deliver(target as any, 'hello')
    expect(sends.at(-1)).to.deep.equal({ bot: 'x:1', channel: 'group:1', guildId: 'g1', content: 'hello', replyTo: { id: 'm2', at: 2000 } })
    // the send's own ids never count as people's messages
    expect(channels.sentByBot(ids[0])).to.equal(true)
    await host.deliver({ bot: 'x:1', channel: 'group:3' }, 'first words')
    expect(sends.at(-1)).to.not.have.property('replyTo')
  })

  it('a typing pause leaves no listener on the long-lived signal it was given', async () => {
    const signal = new AbortController().signal
    for (let i = 0; i < 50; i++) await host.sleep(0, signal)
    expect(getEventListeners(signal, 'abort')).to.have.length(0)
  })

  it('an abort ends a pause at once', async () => {
    const c = new AbortController()
    const started = Date.now()
    const pause = host.sleep(10_000, c.signal)
    c.abort(new Error('stop'))
    await pause.then(() => expect.fail('resolved'), e => expect(e.message).to.equal('stop'))
    expect(Date.now() - started).to.be.below(1000)
  })
})
