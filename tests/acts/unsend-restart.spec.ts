// The acts hold up (SPEC §23) through the real koishi-plugin-adapter-onebot 6.9.4 against the fake NapCat
// (its delete_msg follows NapCatQQ af07479 packages/napcat-onebot/action/msg/DeleteMsg.ts, fakes/onebot/acts.ts):
// an unsend after kotodama restarts (its own sends rebuilt from the history), the `[you unsent this]` mark
// after a restart, and acts that cannot be made using none of `acts.perTurn`.
import { expect } from 'chai'
import { seg } from '../support/fakes/onebot'
import { OneBotHarness, call, FAST_TYPING } from '../support/onebot-harness'
import { toolResultsOf } from '../support/fake-openai'
import { fakeClock } from '../support/fake-clock'

const GROUP = 555
const ALICE = 2001

describe('acts hold up: restarts and the per-turn count (SPEC §23)', function () {
  this.timeout(20000)
  const install = fakeClock()
  let h: OneBotHarness
  afterEach(() => h?.stop())

  const start = (profile: any = {}) => OneBotHarness.start({ profile: { typing: FAST_TYPING, ...profile } })
  const answer = (...calls: string[][]) => {
    h.server.script({ toolCalls: calls.map(messages => call('send_message', { messages, continue: true })) }, { toolCalls: [call('finish', {})] })
  }
  const said = (text = 'I passed my exam') => h.napcat.groupMessage({ group: GROUP, user: ALICE, nickname: 'Alice', text })
  const mention = (text = ' hi') => h.napcat.groupMessage({ group: GROUP, user: ALICE, nickname: 'Alice', segments: [seg.at(10001), seg.text(text)] })
  const turn = async (first: number, calls = 1) => {
    await h.server.waitForRequests(first + 2)
    await h.settled()
    return toolResultsOf(h.server.requests[first + 1]).slice(-calls).map(t => JSON.parse(t.content))
  }
  const params = (action: string) => h.napcat.calls.filter(c => c.action === action).map(c => c.params)
  /** the bot's message, sent in a first turn; returns its id */
  const sendOne = async () => {
    await said()
    answer(['oops, wrong chat'])
    await mention()
    await turn(0)
    return h.napcat.sent[0].message_id
  }

  it('after a restart an unsend within 2 minutes reaches delete_msg; the mark and already_unsent survive the next restart', async () => {
    h = await start()
    const mine = await sendOne()
    await h.reload()
    answer([`<unsend id="${mine}"/>`])
    await mention(' what was that?')
    const [result] = await turn(2)
    expect(result).to.deep.equal({ ok: true, ids: [null] })
    expect(params('delete_msg')).to.deep.equal([{ message_id: mine }])
    expect(h.napcat.deleted).to.deep.equal([mine])

    await h.reload()
    answer([`<unsend id="${mine}"/>`])
    await mention(' and now?')
    const [again] = await turn(4)
    // the history read after the restart shows the message taken back
    expect(JSON.stringify(h.server.requests[4].body)).to.include('[you unsent this] oops, wrong chat')
    expect(again.dropped.map((d: any) => d.code)).to.deep.equal(['already_unsent'])
    expect(params('delete_msg')).to.have.length(1)
  })

  it('after a restart an unsend past 2 minutes is too_late and NapCat is not asked', async () => {
    h = await start()
    const clock = install({ toFake: ['Date'], now: Date.now(), shouldAdvanceTime: false })
    const mine = await sendOne()
    await h.reload()
    // people talk after the restart: the conversation is loaded while the message is still in the window
    await said('anyway')
    await h.until(async () => !!h.app.kotodama && (await h.app.kotodama.list()).length > 0, 'kotodama back')
    await h.app.kotodama.received()
    clock.tick(3 * 60_000)
    answer([`<unsend id="${mine}"/>`])
    await mention(' hm')
    const [result] = await turn(2)
    expect(result.dropped.map((d: any) => d.code)).to.deep.equal(['too_late'])
    expect(params('delete_msg')).to.have.length(0)
  })

  it('acts that cannot be made use none of acts.perTurn: the valid reaction after four of them is still made', async () => {
    h = await start({ acts: { perTurn: 2 } })
    const mine = await sendOne()
    const m = await said('look')
    answer([`<unsend id="${mine}"/>`], [
      `<unsend id="${mine}"/><unsend id="${m.message_id}"/><react emoji="nonsense" to="${m.message_id}"/>`
      + `<react emoji="赞" to="424242"/><react emoji="赞" to="${m.message_id}"/><poke id="${ALICE}"/>`,
    ])
    await mention(' hello')
    const [first, second] = await turn(2, 2)
    expect(first).to.deep.equal({ ok: true, ids: [null] })
    // the unsend and the reaction are the turn's two acts; the poke past them is the only acts_limit
    expect(second.dropped.map((d: any) => d.code)).to.deep.equal(['already_unsent', 'not_own', 'unknown_emoji', 'unknown_message', 'acts_limit'])
    expect(params('set_msg_emoji_like')).to.deep.equal([{ message_id: m.message_id, emoji_id: '76' }])
    expect(params('delete_msg')).to.deep.equal([{ message_id: mine }])
    expect(params('group_poke')).to.have.length(0)
  })
})
