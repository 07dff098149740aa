// What the mind sends through the real koishi-plugin-adapter-onebot (6.9.4) to the fake NapCat (SPEC §19
// "What the mind sends"): quotes and mentions of what the conversation had, QQ faces. The segments as the
// adapter encodes them (lib/index.js OneBotMessageEncoder: `quote` → `reply`, `at` → `at`, `face` → `face`
// when its platform is the bot's) and NapCat takes them (action/msg/SendMsg.ts).
import { expect } from 'chai'
import { seg } from '../support/fakes/onebot'
import { OneBotHarness, call } from '../support/onebot-harness'
import { toolResultsOf } from '../support/fake-openai'
import { Harness } from '../support/harness'

const GROUP = 555

describe('onebot: what the mind sends', function () {
  this.timeout(20000)
  let h: OneBotHarness
  afterEach(async () => { await h?.stop() })

  const answer = async (messages: string[]) => {
    h.server.script({ toolCalls: [call('send_message', { messages, continue: true })] }).fallback({ toolCalls: [call('finish', {})] })
  }

  it('a quote of a message it saw and a mention of someone who wrote go out as reply and at; unknown ones are dropped and reported', async () => {
    h = await OneBotHarness.start()
    const bob = await h.napcat.groupMessage({ group: GROUP, user: 2002, nickname: 'Bob', text: 'the answer is 42' })
    await h.idle(50)
    await answer([`<quote id="${bob.message_id}"/><at id="2002"/> right`, '<quote id="999"/><at id="5555"/> and you'])
    await h.napcat.groupMessage({ group: GROUP, user: 2001, nickname: 'Alice', segments: [seg.at(10001), seg.text(' is Bob right?')] })
    const sent = await h.napcat.waitForSent(2)
    expect(sent[0].segments.map(s => s.type)).to.deep.equal(['reply', 'at', 'text'])
    expect(sent[0].segments[0].data).to.deep.include({ id: String(bob.message_id) })
    expect(sent[0].segments[1].data).to.deep.include({ qq: '2002' })
    // the adapter trims the text around the elements it leaves out
    expect(sent[1].segments).to.deep.equal([seg.text('and you')])
    await h.server.waitForRequests(2)
    await h.settled()
    const result = JSON.parse(toolResultsOf(h.server.requests[1]).at(-1)!.content)
    expect(result.ok).to.equal(true)
    expect(result.dropped.map((d: any) => d.code)).to.deep.equal(['unknown_message', 'unknown_member'])
    expect(result.dropped[0].message).to.include('#999')
  })

  it('a face by name or id goes out as a face segment; one that names no face is dropped and reported', async () => {
    h = await OneBotHarness.start()
    await answer(['<face name="斜眼笑"/> ok <face id="14"/>', 'hm <face name="no such face"/>'])
    await h.napcat.groupMessage({ group: GROUP, user: 2001, nickname: 'Alice', segments: [seg.at(10001), seg.text(' hi')] })
    const sent = await h.napcat.waitForSent(2)
    expect(sent[0].segments).to.deep.equal([{ type: 'face', data: { id: '178' } }, seg.text(' ok '), { type: 'face', data: { id: '14' } }])
    expect(sent[1].segments).to.deep.equal([seg.text('hm')])
    await h.server.waitForRequests(2)
    await h.settled()
    const result = JSON.parse(toolResultsOf(h.server.requests[1]).at(-1)!.content)
    expect(result.dropped.map((d: any) => d.code)).to.deep.equal(['unknown_face'])
  })

  it('a mention in a private chat is dropped: no one to mention', async () => {
    h = await OneBotHarness.start()
    await answer(['<at id="2002"/> hello'])
    await h.napcat.privateMessage({ user: 2002, nickname: 'Bob', text: 'hi' })
    const [sent] = await h.napcat.waitForSent(1)
    expect(sent.segments).to.deep.equal([seg.text('hello')])
    await h.server.waitForRequests(2)
    await h.settled()
    const result = JSON.parse(toolResultsOf(h.server.requests[1]).at(-1)!.content)
    expect(result.dropped.map((d: any) => d.code)).to.deep.equal(['not_a_group'])
  })
})

describe('sends on a platform without QQ faces', function () {
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('a face is sent as its name in brackets', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('send_message', { messages: ['<face id="178"/> sure'] })] })
    await h.client('bob').receive('hi')
    await h.until(() => h.sent.length === 1, 'send')
    expect(h.sent[0].content).to.equal('[斜眼笑] sure')
  })
})
