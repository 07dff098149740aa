// Self-test of the harness's send recording (tests/support/harness.ts): every send is seen, and a
// send that carries a session still reaches plugin-mock's client.
import { expect } from 'chai'
import { Harness } from '../support/harness'

describe('harness: recorded sends', () => {
  let h: Harness

  beforeEach(async () => {
    // a profile that claims no mock channel: only this file's middleware answers
    h = await Harness.start({ profile: { claims: [{ bot: '*', channels: ['group:nowhere'] }] }, failSend: { at: 2, message: 'refused' } })
    h.app.middleware(async (session, next) => {
      const text = session.content ?? ''
      if (text === 'passive') {
        await session.bot.sendMessage(session.channelId!, 'a passive reply', session.guildId, { session })
        return
      }
      if (text === 'quoted') {
        await session.bot.sendMessage(session.channelId!, '<quote id="m-42"/>about that', session.guildId, { session })
        return
      }
      if (text === 'answer') return 'an answer through session.send'
      return next()
    }, true)
  })

  afterEach(async () => {
    await h.stop()
  })

  it('records a send that carries a session, and the client still receives it', async () => {
    const replies = await h.client('bob').receive('passive')
    expect(replies).to.deep.equal(['a passive reply'])
    expect(h.sent).to.have.length(1)
    expect(h.sent[0]).to.deep.include({ bot: 'mock:514', channel: 'private:bob', content: 'a passive reply', session: true })
    expect(h.sent[0].replyTo).to.be.a('string').and.not.equal('')
    expect(h.allSent).to.have.length(1)
    expect(h.allSent[0].reply).to.equal(false)
  })

  it('takes the replied message from a quote in the content over the session', async () => {
    await h.client('bob').shouldReply('quoted', /about that/)
    expect(h.sent[0]).to.deep.include({ session: true, replyTo: 'm-42' })
  })

  it('keeps Koishi\'s replies through session.send out of sent, in allSent', async () => {
    await h.client('bob').shouldReply('answer', 'an answer through session.send')
    expect(h.sent).to.deep.equal([])
    expect(h.allSent).to.have.length(1)
    expect(h.allSent[0]).to.deep.include({ content: 'an answer through session.send', session: true, reply: true })
  })

  it('records an outbound send without a session as before: fake ids, no extra fields', async () => {
    const bot = h.app.bots[0]
    expect(await bot.sendMessage('room9', 'out of the blue')).to.deep.equal(['sent-0'])
    expect(h.sent).to.deep.equal([{ bot: 'mock:514', channel: 'room9', content: 'out of the blue', at: h.sent[0].at }])
  })

  it('counts session sends for failSend, but not Koishi\'s replies', async () => {
    const bot = h.app.bots[0]
    await h.client('bob').shouldReply('answer', 'an answer through session.send')
    await bot.sendMessage('room9', 'first')
    await h.client('bob').receive('passive')
    const error = await bot.sendMessage('room9', 'third').then((): unknown => undefined, (e): any => e)
    expect(error?.message).to.equal('refused')
    expect(h.sent.map(s => s.content)).to.deep.equal(['first', 'a passive reply'])
  })
})
