// Koishi's censor service (SPEC §22 "What it may cost": outgoing text passes it when an owner installed
// one). A service named `censor` whose `transform(elements)` is the API of @koishijs/censor
// (docs: ctx.censor.transform(content): Promise<Element[]>), with a rule of the test's own.
import { expect } from 'chai'
import { h, Service, type Context } from 'koishi'
import { Harness, call } from '../support/harness'

class StarCensor extends Service {
  failing = false
  constructor(ctx: Context) {
    super(ctx, 'censor', true)
  }

  async transform(content: h[]): Promise<h[]> {
    if (this.failing) throw new Error('the moderation server is down')
    return h.transform(content, { text: attrs => String(attrs.content).replace(/secret/g, '******') })
  }
}

describe('koishi: the censor service', () => {
  let h: Harness
  afterEach(async () => { await h?.stop() })

  async function said(text: string): Promise<void> {
    h.server.script({ toolCalls: [call('send_message', { messages: [text] })] })
    await h.client('alice').receive('hi')
    await h.server.waitForRequests(h.server.requests.length + 1)
    await h.settled()
  }

  it('outgoing text passes it: what its rules catch never reaches the platform', async () => {
    h = await Harness.start({ before: app => app.plugin(StarCensor) })
    await said('the secret is 42')
    expect(h.sent.map(s => s.content)).to.deep.equal(['the ****** is 42'])
  })

  it('a censor that fails holds the message back, and the model is told', async () => {
    h = await Harness.start({ before: app => app.plugin(StarCensor) })
    ;(h.app as unknown as { censor: StarCensor }).censor.failing = true
    h.server.script({ toolCalls: [call('send_message', { messages: ['the secret is 42'] })] }, { toolCalls: [call('finish', {})] })
    await h.client('alice').receive('hi')
    await h.server.waitForRequests(2)
    await h.settled()
    expect(h.sent).to.have.length(0)
    expect(JSON.stringify(h.server.requests[1].body.messages.at(-1))).to.include('the censor service failed')
  })

  it('without one, the text goes out as written', async () => {
    h = await Harness.start()
    await said('the secret is 42')
    expect(h.sent.map(s => s.content)).to.deep.equal(['the secret is 42'])
  })
})
