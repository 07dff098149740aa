// Reactions people add (SPEC §23), through the real koishi-plugin-adapter-onebot (6.9.4, which makes no
// session of them: kotodama reads the socket) and the fake NapCat, whose notice follows NapCatQQ's
// event/notice/OB11MsgEmojiLikeEvent.ts as api/group.ts builds it. Facts that never wake: one a message per
// window (60 s), stored when the window closes or before the next turn.
import { expect } from 'chai'
import { seg } from '../support/fakes/onebot'
import { OneBotHarness, call } from '../support/onebot-harness'
import { lastUserText } from '../support/fake-openai'
import { fakeClock, type InstalledClock } from '../support/fake-clock'
import { presencePart, REACTION_WINDOW_MS } from '../../src/presence/part'
import type { Entry } from '../../src/history/entries'

const GROUP = 555
const THUMBS = '128077'   // 👍 by its code point (NapCat's face_config.json, QCid)

describe('acts: reactions people add (OneBot)', function () {
  this.timeout(30000)
  let h: OneBotHarness
  let clock: InstalledClock | undefined
  const installClock = fakeClock()
  afterEach(async () => { await h?.stop() })

  const runtime = async () => (await h.app.kotodama.list())[0]
  const gather = async () => (await runtime()).part(presencePart)!.reactions
  const reactionFacts = async (group = GROUP) =>
    (await (await runtime()).conversation(`group:${group}`)).entries.filter((e): e is Extract<Entry, { type: 'fact' }> => e.type === 'fact' && e.fact.notice === 'reaction')
  /** a message of the bot's own in NapCat's store (reactions are pushed only for those, NapCatQQ #1170) */
  const own = (group = GROUP, text = 'a joke') => h.napcat.groupMessage({ group, user: 10001, text, deliver: false })
  /** Alice writes (not to the bot): her name is known, nothing wakes */
  const aliceWrites = async (group = GROUP) => {
    await h.napcat.groupMessage({ group, user: 2001, nickname: 'Alice', text: 'lol' })
    await h.until(async () => !!h.app.kotodama && (await h.app.kotodama.list()).length > 0)
    await h.app.kotodama.received()
  }
  const closeWindow = async () => {
    await clock!.tickAsync(REACTION_WINDOW_MS + 1000)
    await h.app.kotodama.received()
    await h.idle(50)
  }
  const start = async () => {
    h = await OneBotHarness.start()
    clock = installClock({ toFake: ['setTimeout', 'clearTimeout'], shouldClearNativeTimers: true })
  }

  it('a reaction is stored as a fact when its window closes and wakes nothing; the next turn reads "Alice (2001) reacted 👍 to #id"', async () => {
    await start()
    await aliceWrites()
    const m = await own()
    await h.napcat.emojiLike({ group: GROUP, message: m.message_id, emoji: THUMBS, user: 2001 })
    await h.until(async () => (await gather()).size === 1, 'the reaction gathered')
    expect(await reactionFacts()).to.have.length(0)
    await closeWindow()
    expect(await reactionFacts()).to.have.length(1)
    expect(h.server.requests).to.have.length(0)
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.napcat.groupMessage({ group: GROUP, user: 2002, nickname: 'Bob', segments: [seg.at(10001), seg.text(' what was that?')] })
    await h.server.waitForRequests(1)
    const text = lastUserText(h.server.requests[0])
    expect(text, text).to.match(new RegExp(`\\] Alice \\(2001\\) reacted 👍 to #${m.message_id}\\n`))
    await h.settled()
  })

  it('the next turn reads reactions still gathering; taken back inside the window, one is never stored', async () => {
    await start()
    await aliceWrites()
    const m = await own()
    const gone = await own(GROUP, 'a bad joke')
    await h.napcat.emojiLike({ group: GROUP, message: m.message_id, emoji: '76', user: 2001 })
    await h.napcat.emojiLike({ group: GROUP, message: gone.message_id, emoji: THUMBS, user: 2001 })
    await h.napcat.emojiLike({ group: GROUP, message: gone.message_id, emoji: THUMBS, user: 2001, add: false })
    await h.until(async () => (await gather()).size === 1, 'one tally open')
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.napcat.groupMessage({ group: GROUP, user: 2002, nickname: 'Bob', segments: [seg.at(10001), seg.text(' hi')] })
    await h.server.waitForRequests(1)
    const text = lastUserText(h.server.requests[0])
    expect(text, text).to.include(`Alice (2001) reacted 赞 to #${m.message_id}`).and.not.include(`#${gone.message_id}`)
    await h.settled()
    await closeWindow()
    expect((await reactionFacts()).map(e => e.fact.reactions!.to)).to.deep.equal([String(m.message_id)])
  })

  it('100 reactions in a minute to 3 messages: 3 facts with their counts, no model call, the gather emptied', async () => {
    await start()
    await aliceWrites()
    const ms = [await own(), await own(GROUP, 'two'), await own(GROUP, 'three')]
    const hearts = '66'   // the face 爱心
    for (let i = 0; i < 100; i++) {
      await h.napcat.emojiLike({ group: GROUP, message: ms[i % 3].message_id, emoji: i % 4 ? THUMBS : hearts, user: i < 3 ? 2001 : 3000 + i })
      await clock!.tickAsync(500)
    }
    await h.until(async () => (await gather()).size === 3, 'three tallies')
    await closeWindow()
    const facts = await reactionFacts()
    expect(facts).to.have.length(3)
    expect(h.server.requests).to.have.length(0)
    expect((await gather()).size).to.equal(0)
    const first = facts.find(e => e.fact.reactions!.to === String(ms[0].message_id))!.fact.reactions!
    // 34 reactions to the first message: i = 0, 3, ..., 99; hearts where i % 4 == 0
    expect(first.emoji).to.deep.equal([['爱心', 9], ['👍', 25]])
    expect(first.by.map(p => p.id)).to.deep.equal(['2001', '3003', '3006'])
    expect(first.others).to.equal(31)
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.napcat.groupMessage({ group: GROUP, user: 2002, nickname: 'Bob', segments: [seg.at(10001), seg.text(' busy?')] })
    await h.server.waitForRequests(1)
    const text = lastUserText(h.server.requests[0])
    expect(text, text).to.include(`Alice (2001), 3003 (3003), 3006 (3006) and 31 others reacted 爱心×9 👍×25 to #${ms[0].message_id}`)
    await h.settled()
  })

  it('a reaction in another group goes to that group; an unknown emoji id is told by its number; no user is "someone"', async () => {
    await start()
    await aliceWrites(556)
    const m = await own(556)
    await h.napcat.emojiLike({ group: 556, message: m.message_id, emoji: '99999', user: 2001 })
    await h.napcat.emojiLike({ group: 556, message: m.message_id, emoji: THUMBS })
    await h.until(async () => (await gather()).size === 1, 'the reactions gathered')
    await closeWindow()
    const [fact] = await reactionFacts(556)
    expect(fact.fact.channel).to.equal('group:556')
    expect(fact.fact.content).to.equal(`reacted face-99999 👍 to #${m.message_id}`)
    expect(fact.fact.reactions!.by).to.deep.equal([{ id: '2001', name: 'Alice' }, { id: '', name: 'someone' }])
    expect(await reactionFacts(GROUP)).to.have.length(0)
    expect(h.server.requests).to.have.length(0)
  })

  it('a notice without a group or with no likes is logged and ignored; the next reaction is still stored', async () => {
    await start()
    await aliceWrites()
    const m = await own()
    const base = { time: 1, self_id: 10001, post_type: 'notice', notice_type: 'group_msg_emoji_like', user_id: 2001, message_id: m.message_id, is_add: true }
    await h.napcat.push({ ...base, likes: [{ emoji_id: THUMBS, count: 1 }] })
    await h.napcat.push({ ...base, group_id: GROUP, likes: 'many' })
    await h.napcat.emojiLike({ group: GROUP, message: m.message_id, emoji: THUMBS, user: 2001 })
    await h.until(async () => (await gather()).size === 1, 'the good one gathered')
    await closeWindow()
    expect((await reactionFacts()).map(e => e.fact.content)).to.deep.equal([`reacted 👍 to #${m.message_id}`])
    expect(h.warnings().filter(w => w.includes('reaction notice'))).to.have.length(2)
  })
})
