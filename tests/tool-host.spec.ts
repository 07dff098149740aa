import { expect } from 'chai'
import { getEventListeners } from 'node:events'
import { createToolHost } from '../src/runtime/tool-host'
import { systemClock } from '../src/util/clock'

describe('tool host', () => {
  const host = createToolHost({
    profile: { mode: 'channel', typing: {}, claims: [{ bot: '*', channels: ['*'] }] } as any, bot: 'x:1', clock: systemClock,
    platform: { isOnline: () => true, send: async () => ['1'] }, random: Math.random,
    media: async () => { throw new Error('none') }, placeOf: () => ({}), rememberSent: () => {},
  }, { ownTarget: () => ({ bot: 'x:1', channel: 'group:1' }), serialize: t => t() })

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
