// The acts of SPEC §23 through the real koishi-plugin-adapter-onebot 6.9.4 against the fake NapCat, whose
// set_msg_emoji_like, group_poke / friend_poke and delete_msg follow NapCatQQ af07479 (fakes/onebot/acts.ts
// names each file). What reaches NapCat is read from the fake's action log; what the mind is told, from
// send_message's results in the next request.
import { expect } from 'chai'
import { seg } from '../support/fakes/onebot'
import { OneBotHarness, call, FAST_TYPING } from '../support/onebot-harness'
import { toolResultsOf, userTexts } from '../support/fake-openai'
import { fakeClock } from '../support/fake-clock'

const GROUP = 555
const ALICE = 2001
/** ten minutes a message: a send that paused would never settle within the test */
const SLOW_TYPING = { baseDelay: 600_000, charPerSecond: 1, minDelay: 600_000, maxDelay: 600_000, jitter: 0 }

describe('acts through OneBot (SPEC §23)', function () {
  this.timeout(20000)
  const install = fakeClock()
  let h: OneBotHarness
  afterEach(() => h?.stop())

  const start = (profile: any = {}, napcat: any = {}) => OneBotHarness.start({ profile: { typing: FAST_TYPING, ...profile }, napcat })
  /** the next turn's send_message calls (one message list each), then finish */
  const answer = (...calls: string[][]) => {
    h.server.script({ toolCalls: calls.map(messages => call('send_message', { messages, continue: true })) }, { toolCalls: [call('finish', {})] })
  }
  /** Alice writes without waking the bot: a message the mind sees and may point at */
  const said = async (text = 'I passed my exam') => {
    return h.napcat.groupMessage({ group: GROUP, user: ALICE, nickname: 'Alice', text })
  }
  const mention = (text = ' hi') => h.napcat.groupMessage({ group: GROUP, user: ALICE, nickname: 'Alice', segments: [seg.at(10001), seg.text(text)] })
  /** the results of the `calls` send_message calls of the turn whose first request is `first` (the request after it holds them last) */
  const turn = async (first: number, calls = 1) => {
    await h.server.waitForRequests(first + 2)
    await h.settled()
    return toolResultsOf(h.server.requests[first + 1]).slice(-calls).map(t => JSON.parse(t.content))
  }
  const params = (action: string) => h.napcat.calls.filter(c => c.action === action).map(c => c.params)

  it('an act-only message reacts through set_msg_emoji_like with QQ\'s ids, sends no chat message and has no typing pause', async () => {
    h = await start({ typing: SLOW_TYPING })
    const m = await said()
    answer([`<react emoji="赞" to="${m.message_id}"/>`, `<react emoji="👍" to="${m.message_id}"/>`])
    await mention()
    const [result] = await turn(0)
    expect(result).to.deep.equal({ ok: true, ids: [null, null] })
    // the face 赞 is QQ's 76; 👍 goes as its code point (NapCat core/apis/msg.ts setEmojiLike)
    expect(params('set_msg_emoji_like')).to.deep.equal([{ message_id: m.message_id, emoji_id: '76' }, { message_id: m.message_id, emoji_id: '128077' }])
    expect(h.napcat.emojiLikes.map(l => l.set)).to.deep.equal([true, true])
    expect(h.napcat.sent).to.have.length(0)
  })

  it('mixed text and acts: the text is sent first, then the reaction and the poke (group_poke) are made', async () => {
    h = await start()
    const m = await said()
    answer([`congrats! <react emoji="玫瑰" to="${m.message_id}"/><poke id="${ALICE}"/>`])
    await mention()
    const [result] = await turn(0)
    const [sent] = h.napcat.sent
    expect(sent.segments).to.deep.equal([seg.text('congrats!')])
    expect(result).to.deep.equal({ ok: true, ids: [String(sent.message_id)] })
    expect(params('set_msg_emoji_like')).to.deep.equal([{ message_id: m.message_id, emoji_id: '63' }])
    expect(params('group_poke')).to.deep.equal([{ group_id: GROUP, user_id: ALICE }])
    const order = h.napcat.calls.map(c => c.action).filter(a => ['send_group_msg', 'set_msg_emoji_like', 'group_poke'].includes(a))
    expect(order).to.deep.equal(['send_group_msg', 'set_msg_emoji_like', 'group_poke'])
  })

  it('20 acts in one message: acts.perTurn (3) holds across kinds, the rest dropped with acts_limit', async () => {
    h = await start()
    const m = await said()
    answer([`<poke id="${ALICE}"/>` + `<react emoji="赞" to="${m.message_id}"/>`.repeat(19)])
    await mention()
    const [result] = await turn(0)
    expect(result.ok).to.equal(true)
    expect(result.ids).to.deep.equal([null])
    expect(params('group_poke')).to.have.length(1)
    expect(params('set_msg_emoji_like')).to.have.length(2)
    expect(result.dropped.map((d: any) => d.code)).to.deep.equal(Array(17).fill('acts_limit'))
  })

  it('bad acts are dropped by code and the rest of the message goes: a 500-character emoji, another chat\'s id, a second poke, a stranger', async () => {
    h = await start({ acts: { perTurn: 10 } })
    const elsewhere = await h.napcat.groupMessage({ group: 777, user: 3003, text: 'other group' })
    const m = await said()
    const huge = '😀'.repeat(250)
    answer([`ok <react emoji="${huge}" to="${m.message_id}"/><react emoji="赞" to="${elsewhere.message_id}"/>`
      + `<poke id="${ALICE}"/><poke id="${ALICE}"/><poke id="9999"/>`])
    await mention()
    const [result] = await turn(0)
    expect(h.napcat.sent.map(s => s.segments)).to.deep.equal([[seg.text('ok')]])
    expect(result.dropped.map((d: any) => d.code)).to.deep.equal(['unknown_emoji', 'unknown_message', 'poke_repeat', 'unknown_member'])
    expect(result.dropped[0].src.length).to.be.at.most(120)
    expect(params('set_msg_emoji_like')).to.have.length(0)
    expect(params('group_poke')).to.deep.equal([{ group_id: GROUP, user_id: ALICE }])
  })

  it('unsend within the window: delete_msg of its own message; again: already_unsent; another\'s message: not_own; the history marks it', async () => {
    h = await start()
    const m = await said()
    answer(['oops, wrong chat'])
    await mention()
    await turn(0)
    const mine = h.napcat.sent[0].message_id
    answer([`<unsend id="${mine}"/>`], [`<unsend id="${mine}"/><unsend id="${m.message_id}"/>`])
    await mention(' what was that?')
    const [first, second] = await turn(2, 2)
    expect(first).to.deep.equal({ ok: true, ids: [null] })
    expect(params('delete_msg')).to.deep.equal([{ message_id: mine }])
    expect(h.napcat.deleted).to.deep.equal([mine])
    // both refused before anything is made: the message held nothing else, so the call says so
    expect(second).to.deep.include({ ok: false, sent: [] })
    expect(second.error.name).to.equal('InvalidMessage')
    expect(second.dropped.map((d: any) => d.code)).to.deep.equal(['already_unsent', 'not_own'])
    expect(params('delete_msg')).to.have.length(1)
    // the next request reads the message as taken back
    answer([])
    await mention(' hello?')
    await h.server.waitForRequests(5)
    expect(JSON.stringify(h.server.requests[4].body)).to.include('[you unsent this]')
  })

  it('unsend past QQ\'s 2 minutes: too_late, and NapCat is not asked', async () => {
    h = await start()
    const clock = install({ toFake: ['Date'], now: Date.now(), shouldAdvanceTime: false })
    await said()
    answer(['hello'])
    await mention()
    await turn(0)
    const mine = h.napcat.sent[0].message_id
    clock.tick(3 * 60_000)
    answer([`<unsend id="${mine}"/>`])
    await mention(' hm')
    const [result] = await turn(2)
    expect(result.dropped.map((d: any) => d.code)).to.deep.equal(['too_late'])
    expect(params('delete_msg')).to.have.length(0)
  })

  it('acts.react false: a reaction dropped with react_off, the text still sent', async () => {
    h = await start({ acts: { react: false } })
    const m = await said()
    answer([`sure <react emoji="赞" to="${m.message_id}"/>`])
    await mention()
    const [result] = await turn(0)
    expect(h.napcat.sent.map(s => s.segments)).to.deep.equal([[seg.text('sure')]])
    expect(result.dropped.map((d: any) => d.code)).to.deep.equal(['react_off'])
    expect(params('set_msg_emoji_like')).to.have.length(0)
  })

  it('a refusal in NapCat\'s words: a poke without the packet backend (1400), the text and the reaction unaffected', async () => {
    h = await start({}, { packet: false })
    const m = await said()
    answer([`hey <poke id="${ALICE}"/><react emoji="赞" to="${m.message_id}"/>`])
    await mention()
    const [result] = await turn(0)
    expect(h.napcat.sent.map(s => s.segments)).to.deep.equal([[seg.text('hey')]])
    expect(result.dropped).to.have.length(1)
    expect(result.dropped[0].code).to.equal('send_failed')
    expect(result.dropped[0].message).to.include('packetBackend发包能力不可用').and.not.match(/https?:/)
    expect(params('set_msg_emoji_like')).to.have.length(1)
  })

  it('a private chat: friend_poke of the person; nobody else may be poked there', async () => {
    h = await start()
    answer([`<poke id="${ALICE}"/><poke id="3003"/>`])
    await h.napcat.privateMessage({ user: ALICE, text: 'poke me' })
    const [result] = await turn(0)
    expect(params('friend_poke')).to.deep.equal([{ user_id: ALICE }])
    expect(result.dropped.map((d: any) => d.code)).to.deep.equal(['unknown_member'])
  })
})
