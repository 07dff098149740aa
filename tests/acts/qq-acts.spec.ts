// The acts of SPEC §23 on QQ's official API, through the real @satorijs/adapter-qq 4.11 against the fake
// QQ server (tests/support/fakes/qq/): a group bot has no reactions (QQBot has no createReaction; only
// the guild bot does), so the reaction is dropped with a code and the text still goes as a passive reply.
import { expect } from 'chai'
import { QQHarness } from '../support/qq-harness'
import { toolResultsOf } from '../support/fake-openai'
import { call } from '../support/harness'

describe('acts through QQ\'s official API (SPEC §23)', function () {
  this.timeout(20000)
  let h: QQHarness
  afterEach(() => h?.stop())

  it('a reaction is dropped with not_supported and the text is still sent as a passive reply to the message', async () => {
    h = await QQHarness.start()
    let g: { id: string } | undefined
    // the mind reacts to the message it was woken by, by the id the fake QQ server gave it
    h.server.script(() => ({ toolCalls: [call('send_message', { messages: [`glad to hear <react emoji="👍" to="${g!.id}"/>`], continue: true })] }))
      .fallback({ toolCalls: [call('finish', {})] })
    g = h.qq.groupAt({ group: 'G1', member: 'M1', content: ' I passed' })
    await h.server.waitForRequests(2)
    await h.settled()
    const [out] = h.qq.outbound
    expect(out).to.deep.include({ kind: 'passive', chat: 'G1' })
    expect(out.body).to.deep.include({ content: 'glad to hear ', msg_id: g.id })
    const [result] = toolResultsOf(h.server.requests[1]).map(t => JSON.parse(t.content))
    expect(result.ok).to.equal(true)
    expect(result.dropped.map((d: any) => d.code)).to.deep.equal(['not_supported'])
    expect(result.dropped[0].message).to.include('no reactions')
    // a real id of the conversation: the refusal is the platform's, not an unknown message
    expect(result.dropped[0].src).to.include(`to="${g.id}"`)
    expect(JSON.stringify(h.server.requests[0].body)).to.include(g.id)
    expect(h.qq.outbound).to.have.length(1)
  })

  it('an unsend takes back the bot\'s own message through DELETE /v2/groups/{openid}/messages/{id} (QQ: within 2 minutes)', async () => {
    h = await QQHarness.start()
    h.server.script({ toolCalls: [call('send_message', { messages: ['oops, wrong chat'], continue: true })] })
      .script(() => ({ toolCalls: [call('send_message', { messages: [`<unsend id="${h.qq.outbound[0].id}"/>`], continue: true })] }))
      .fallback({ toolCalls: [call('finish', {})] })
    h.qq.groupAt({ group: 'G1', member: 'M1', content: ' hi' })
    await h.server.waitForRequests(3)
    await h.settled()
    const [sent] = h.qq.outbound
    expect(sent).to.deep.include({ kind: 'passive', chat: 'G1' })
    expect(h.qq.deleted).to.deep.equal([{ scene: 'group', chat: 'G1', id: sent.id }])
    const results = toolResultsOf(h.server.requests[2]).map(t => JSON.parse(t.content))
    expect(results.at(-1)).to.deep.equal({ ok: true, ids: [null] })
    expect(JSON.stringify(h.server.requests[2].body.messages)).to.include('[you unsent this]')
  })
})
