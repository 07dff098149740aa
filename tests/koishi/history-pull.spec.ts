// History after downtime (SPEC §19): messages said while the bot was away are pulled from the platform,
// through the real koishi-plugin-adapter-onebot and a fake NapCat whose history actions page as NapCat's
// GetGroupMsgHistory / GetFriendMsgHistory do (NapCatQQ packages/napcat-onebot/action/go-cqhttp/: by
// message_seq, inclusive, oldest first, at most 50 a call); `deliver: false` keeps a message in the
// fake's history without posting it, as one said while the bot was down.
import { expect } from 'chai'
import { Universal } from 'koishi'
import { configSchema } from '../../src/runtime/config-of-parts'
import { DEFAULT_HISTORY } from '../../src/config/defaults'
import { checkConfig } from '../../src/runtime/config-of-parts'
import type { Entry, Fact } from '../../src/history/entries'
import { EntryTail } from '../../src/runtime/entry-tail'
import { seg } from '../support/fakes/onebot'
import { OneBotHarness, call } from '../support/onebot-harness'
import { lastUserText } from '../support/fake-openai'
import { until } from '../support/app-waits'

const GROUP = 555
const mention = (text: string) => [seg.at(10001), seg.text(` ${text}`)]

async function entriesOf(h: OneBotHarness, channel: string): Promise<Entry[]> {
  const runtime = (await h.app.kotodama.list()).find(r => r.bot === h.botId)!
  return (await runtime.conversation(channel)).entries
}

async function factsOf(h: OneBotHarness, channel: string): Promise<Fact[]> {
  return (await entriesOf(h, channel)).flatMap(e => e.type === 'fact' ? [e.fact] : [])
}

/** The facts of `channel` once it holds `n` (a message posted by the fake reaches the plugin a little later). */
async function stored(h: OneBotHarness, channel: string, n: number): Promise<Fact[]> {
  let facts: Fact[] = []
  await until(async () => {
    const runtime = (await h.app.kotodama.list()).find(r => r.bot === h.botId)
    facts = runtime ? (await runtime.conversation(channel)).entries.flatMap(e => e.type === 'fact' ? [e.fact] : []) : []
    return facts.length >= n
  }, `${n} facts in ${channel}`)
  await drained(h)
  return facts
}

const historyCalls = (h: OneBotHarness, action = 'get_group_msg_history') => h.napcat.calls.filter(c => c.action === action)

/** Everything received is stored and written, turns included. */
async function drained(h: OneBotHarness): Promise<void> {
  await h.app.kotodama.received()
  await h.settled()
}

/** The texts of `texts` appear in `text` in this order. */
function inOrder(text: string, texts: string[]): void {
  const at = texts.map(t => text.indexOf(t))
  expect(at.every(i => i >= 0), `all of ${JSON.stringify(texts)} in the request`).to.equal(true)
  expect([...at].sort((a, b) => a - b)).to.deep.equal(at)
}

describe('history after downtime (SPEC §19)', function () {
  let h: OneBotHarness
  afterEach(async () => { await h?.stop() })

  it('messages said while the bot was away come before the mention in the next request, in order, and wake nothing', async () => {
    h = await OneBotHarness.start()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    await h.napcat.groupMessage({ group: GROUP, user: 2001, nickname: 'Alice', text: 'before the outage' })
    await stored(h, `group:${GROUP}`, 1)
    h.napcat.disconnect()
    await h.until(() => h.bot?.status !== Universal.Status.ONLINE, 'the bot to go offline')
    // a mention said while the bot was away is history: it wakes nothing now
    for (const segments of [[seg.text('away one')], [seg.text('away two '), seg.at(10001)], [seg.text('away three')]]) {
      await h.napcat.groupMessage({ group: GROUP, user: 2002, nickname: 'Bob', segments, deliver: false })
    }
    await h.reloadAdapter()
    const live = await h.napcat.groupMessage({ group: GROUP, user: 2001, nickname: 'Alice', segments: mention('what did I miss?') })
    await h.server.waitForRequests(1)
    await drained(h)
    expect(h.server.requests).to.have.length(1)
    inOrder(lastUserText(h.server.requests[0]), ['away one', 'away two', 'away three', 'what did I miss?'])
    const entries = await entriesOf(h, `group:${GROUP}`)
    const facts = entries.flatMap(e => e.type === 'fact' ? [e] : [])
    expect(facts.map(e => [e.fact.content.trim(), !!e.fact.pulled, e.wake ?? e.held ?? null])).to.deep.equal([
      ['before the outage', false, null],
      ['away one', true, null], ['away two <at id="10001"/>', true, null], ['away three', true, null],
      ['<at id="10001"/> what did I miss?', false, 'mention'],
    ])
    expect(facts[1].fact).to.include({ channel: `group:${GROUP}`, direct: false }).and.deep.include({ user: { id: '2002', name: 'Bob' } })
    expect(facts.at(-1)!.fact.id).to.equal(String(live.message_id))
    expect(entries.filter(e => e.type === 'turn')).to.have.length(1)
    expect(h.warnings()).to.deep.equal([])
  })

  it('a conversation first heard now gets what was said before it (none older than pullMaxAgeHours), the bot\'s own messages left out', async () => {
    h = await OneBotHarness.start()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    const now = Math.floor(Date.now() / 1000)
    await h.napcat.groupMessage({ group: GROUP, user: 2002, text: 'two days ago', time: now - 48 * 3600, deliver: false })
    await h.napcat.groupMessage({ group: GROUP, user: 2002, text: 'an hour ago', time: now - 3600, deliver: false })
    await h.napcat.groupMessage({ group: GROUP, user: 10001, nickname: 'Neko', text: 'the bot said this', deliver: false })
    await h.napcat.groupMessage({ group: GROUP, user: 2003, card: 'Carol', text: 'just now', deliver: false })
    await h.napcat.groupMessage({ group: GROUP, user: 2001, segments: mention('hello') })
    await h.server.waitForRequests(1)
    await drained(h)
    const facts = await factsOf(h, `group:${GROUP}`)
    expect(facts.map(f => f.content.trim())).to.deep.equal(['an hour ago', 'just now', '<at id="10001"/> hello'])
    expect(facts[0].at).to.equal((now - 3600) * 1000)
    expect(facts[1].user).to.deep.equal({ id: '2003', name: 'Carol' })
    expect(h.server.requests).to.have.length(1)
    expect(historyCalls(h)).to.have.length(1)
  })

  it('pulls the newest pullMax of 120 through pages of at most 50 by message_seq, oldest first', async () => {
    h = await OneBotHarness.start({ profile: { history: { pull: true, pullMax: 100, pullMaxAgeHours: 24 } } })
    h.server.fallback({ toolCalls: [call('finish', {})] })
    for (let i = 1; i <= 120; i++) await h.napcat.groupMessage({ group: GROUP, user: 2001 + (i % 3), text: `m${i}`, deliver: false })
    await h.napcat.groupMessage({ group: GROUP, user: 2001, segments: mention('catch up') })
    await h.server.waitForRequests(1)
    await drained(h)
    const facts = await factsOf(h, `group:${GROUP}`)
    expect(facts.map(f => f.content.trim())).to.deep.equal([...Array.from({ length: 100 }, (_, i) => `m${i + 21}`), '<at id="10001"/> catch up'])
    // the first page ends at the mention, which arrives live; each later one starts at (and repeats) the oldest so far
    const calls = historyCalls(h).map(c => c.params)
    const history = h.napcat.messages(`group:${GROUP}`)
    expect(calls).to.deep.equal([
      { group_id: GROUP, count: 50 },
      { group_id: GROUP, count: 50, message_seq: history[71].message_seq },
      { group_id: GROUP, count: 3, message_seq: history[22].message_seq },
    ])
    expect(h.server.requests).to.have.length(1)
    inOrder(lastUserText(h.server.requests[0]), ['m21', 'm22', 'm119', 'm120', 'catch up'])
  })

  it('takes a page shorter than asked for a cap, not for the start of the history (implementations answering 30 a call)', async () => {
    h = await OneBotHarness.start({ napcat: { historyMax: 30 } })
    h.server.fallback({ toolCalls: [call('finish', {})] })
    for (let i = 1; i <= 120; i++) await h.napcat.groupMessage({ group: GROUP, user: 2002, text: `m${i}`, deliver: false })
    await h.napcat.groupMessage({ group: GROUP, user: 2001, segments: mention('catch up') })
    await h.server.waitForRequests(1)
    await drained(h)
    const facts = await factsOf(h, `group:${GROUP}`)
    expect(facts.map(f => f.content.trim())).to.deep.equal([...Array.from({ length: 50 }, (_, i) => `m${i + 71}`), '<at id="10001"/> catch up'])
    expect(historyCalls(h)).to.have.length(2)
  })

  it('a message both pulled and delivered live is stored once, either way round', async () => {
    h = await OneBotHarness.start()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    const late = await h.napcat.groupMessage({ group: GROUP, user: 2002, text: 'delivered late', deliver: false })
    await h.napcat.groupMessage({ group: GROUP, user: 2001, segments: mention('hi') })
    await stored(h, `group:${GROUP}`, 2)
    await h.napcat.push(late)
    await h.napcat.groupMessage({ group: GROUP, user: 2003, text: 'after it' })
    const facts = await stored(h, `group:${GROUP}`, 3)
    expect(facts.map(f => f.content.trim())).to.deep.equal(['delivered late', '<at id="10001"/> hi', 'after it'])
    // pulled after its live delivery: the conversation holds it, so it is not stored again
    const runtime = (await h.app.kotodama.list())[0]
    const held = (await factsOf(h, `group:${GROUP}`))[1]
    expect(await runtime.pulled.store([{ ...held, content: 'again', pulled: true }])).to.equal(0)
    expect(await factsOf(h, `group:${GROUP}`)).to.have.length(3)
    expect(h.server.requests).to.have.length(1)
  })

  it('after a restart the pull starts from the last stored message: nothing twice', async () => {
    h = await OneBotHarness.start()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    await h.napcat.groupMessage({ group: GROUP, user: 2002, text: 'old one', deliver: false })
    await h.napcat.groupMessage({ group: GROUP, user: 2001, segments: mention('first') })
    await h.server.waitForRequests(1)
    await drained(h)
    await h.reload()
    await h.napcat.groupMessage({ group: GROUP, user: 2002, text: 'said during the restart', deliver: false })
    const before = historyCalls(h).length
    await h.napcat.groupMessage({ group: GROUP, user: 2001, segments: mention('second') })
    await h.server.waitForRequests(2)
    await drained(h)
    const facts = await factsOf(h, `group:${GROUP}`)
    expect(facts.map(f => f.content.trim())).to.deep.equal(['old one', '<at id="10001"/> first', 'said during the restart', '<at id="10001"/> second'])
    expect(new Set(facts.map(f => f.id)).size).to.equal(facts.length)
    expect(historyCalls(h).length - before).to.equal(1)
    inOrder(lastUserText(h.server.requests[1]), ['said during the restart', 'second'])
  })

  it('a runtime that starts pulls its stored conversations without a message there; its bot coming online pulls them again', async () => {
    h = await OneBotHarness.start()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    await h.napcat.groupMessage({ group: 556, user: 2001, text: 'in 556' })
    await h.napcat.groupMessage({ group: GROUP, user: 2001, text: 'in 555' })
    await stored(h, 'group:556', 1)
    await stored(h, `group:${GROUP}`, 1)
    await h.reload()
    const of556 = () => historyCalls(h).filter(c => c.params.group_id === 556).length
    const first = of556()
    await h.napcat.groupMessage({ group: 556, user: 2002, text: 'missed in 556', deliver: false })
    await h.napcat.groupMessage({ group: GROUP, user: 2001, text: 'back in 555' })
    await h.until(() => of556() === first + 1, 'the pull of group 556')
    await drained(h)
    expect((await factsOf(h, 'group:556')).map(f => f.content)).to.deep.equal(['in 556', 'missed in 556'])
    // online again without a restart (RECONNECT → ONLINE): a new epoch, the running runtime pulls
    await h.napcat.groupMessage({ group: 556, user: 2002, text: 'missed again', deliver: false })
    ;(h.app as any).emit('bot-status-updated', h.bot)
    await h.until(() => of556() === first + 2, 'the second pull of group 556')
    await drained(h)
    expect((await factsOf(h, 'group:556')).map(f => f.content)).to.deep.equal(['in 556', 'missed in 556', 'missed again'])
    expect(h.server.requests).to.have.length(0)
  })

  it('pulls at most 4 conversations at once when a runtime starts with many', async () => {
    h = await OneBotHarness.start()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    for (let g = 1; g <= 10; g++) await h.napcat.groupMessage({ group: 600 + g, user: 2001, text: `hello ${g}` })
    for (let g = 1; g <= 10; g++) await stored(h, `group:${600 + g}`, 1)
    await h.reload()
    let active = 0
    let peak = 0
    const real = h.napcat.messages.bind(h.napcat)
    h.napcat.answer('get_group_msg_history', async p => {
      active++
      peak = Math.max(peak, active)
      await new Promise(r => setTimeout(r, 20))
      active--
      return { messages: real(`group:${p.group_id}`).slice(-Number(p.count)) }
    })
    const before = historyCalls(h).length
    await h.napcat.groupMessage({ group: 601, user: 2001, text: 'wake the runtime' })
    await h.until(() => historyCalls(h).length - before === 10, 'a pull of every group')
    await drained(h)
    // nine conversations waited for their pull at once; four at a time reached the platform
    expect(peak).to.be.within(2, 4)
  })

  it('history.pull: false calls no history action', async () => {
    h = await OneBotHarness.start({ profile: { history: { pull: false, pullMax: 50, pullMaxAgeHours: 24 } } })
    h.server.fallback({ toolCalls: [call('finish', {})] })
    await h.napcat.groupMessage({ group: GROUP, user: 2002, text: 'away', deliver: false })
    await h.napcat.groupMessage({ group: GROUP, user: 2001, segments: mention('hi') })
    await h.napcat.privateMessage({ user: 2002, text: 'hello in private' })
    await h.server.waitForRequests(2)
    await drained(h)
    await h.reload()
    await h.napcat.groupMessage({ group: GROUP, user: 2001, text: 'after the reload' })
    const facts = await stored(h, `group:${GROUP}`, 2)
    expect(h.napcat.calls.filter(c => /msg_history/.test(c.action))).to.deep.equal([])
    expect(facts.map(f => f.content.trim())).to.deep.equal(['<at id="10001"/> hi', 'after the reload'])
  })

  it('a history action that fails is logged, and the live message is still stored and answered', async () => {
    h = await OneBotHarness.start()
    h.server.script({ toolCalls: [call('send_message', { messages: ['here'] })] }).fallback({ toolCalls: [call('finish', {})] })
    h.napcat.fail('get_group_msg_history', { retcode: 1200, message: 'history is broken', wording: '历史坏了' })
    await h.napcat.groupMessage({ group: GROUP, user: 2002, text: 'lost', deliver: false })
    await h.napcat.groupMessage({ group: GROUP, user: 2001, segments: mention('are you there?') })
    await h.napcat.waitForSent(1)
    await drained(h)
    expect((await factsOf(h, `group:${GROUP}`)).map(f => f.content.trim())).to.deep.equal(['<at id="10001"/> are you there?'])
    expect(h.warnings()).to.deep.equal([
      `profile neko: the history of group:${GROUP} on onebot:10001: get_group_msg_history failed: retcode 1200 (历史坏了)`,
    ])
  })

  // NapCat stores a message in the history before it posts the event (its times are whole seconds): the first
  // live message's pull finds the messages said right after it, which must still arrive live, and wake
  it('messages said in the same second after the first live one are not pulled ahead of it: they arrive live and wake', async () => {
    h = await OneBotHarness.start()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    const time = Math.floor(Date.now() / 1000)
    await h.napcat.groupMessage({ group: GROUP, user: 2002, text: 'earlier', time, deliver: false })
    await h.napcat.groupMessage({ group: GROUP, user: 2002, text: 'first live', time })
    await h.napcat.groupMessage({ group: GROUP, user: 2001, segments: mention('second live'), time })
    await h.server.waitForRequests(1)
    await drained(h)
    const facts = await factsOf(h, `group:${GROUP}`)
    expect(facts.map(f => [f.content.trim(), !!f.pulled])).to.deep.equal([['earlier', true], ['first live', false], ['<at id="10001"/> second live', false]])
  })

  it('garbage from the history action (no list, items without ids) is logged and skipped; the live message is answered', async () => {
    h = await OneBotHarness.start()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    h.napcat.script('get_group_msg_history', { data: { messages: 'not a list' } })
    await h.napcat.groupMessage({ group: GROUP, user: 2001, segments: mention('one') })
    await h.server.waitForRequests(1)
    await drained(h)
    const good = (await h.napcat.groupMessage({ group: 556, user: 2002, text: 'a good one', deliver: false }))
    h.napcat.script('get_group_msg_history', { data: { messages: [null, 'x', { time: 1 }, { message_id: 7, time: 'soon', message: [] }, good] } })
    await h.napcat.groupMessage({ group: 556, user: 2001, segments: mention('two') })
    await h.server.waitForRequests(2)
    await drained(h)
    expect((await factsOf(h, `group:${GROUP}`)).map(f => f.content.trim())).to.deep.equal(['<at id="10001"/> one'])
    expect((await factsOf(h, 'group:556')).map(f => f.content.trim())).to.deep.equal(['a good one', '<at id="10001"/> two'])
    expect(h.warnings()).to.deep.equal([
      `profile neko: the history of group:${GROUP} on onebot:10001: get_group_msg_history answered without a list of messages (a string)`,
      'profile neko: the history of group:556 on onebot:10001: 4 malformed message(s) skipped (no message_id, time or sender)',
    ])
  })

  it('a page that repeats, or does not go back in time, stops the pull with a log line', async () => {
    h = await OneBotHarness.start()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    for (let i = 1; i <= 60; i++) await h.napcat.groupMessage({ group: GROUP, user: 2002, text: `m${i}`, deliver: false })
    const latest = h.napcat.messages(`group:${GROUP}`).slice(-10)
    // an implementation that ignores message_seq: every page is the latest one
    h.napcat.answer('get_group_msg_history', () => ({ messages: latest }))
    await h.napcat.groupMessage({ group: GROUP, user: 2001, segments: mention('hi') })
    await h.server.waitForRequests(1)
    await drained(h)
    expect(historyCalls(h)).to.have.length(2)
    expect((await factsOf(h, `group:${GROUP}`)).map(f => f.content.trim())).to.deep.equal([
      ...latest.map(m => (m.message[0] as any).data.text), '<at id="10001"/> hi',
    ])
    expect(h.warnings()).to.have.length(1)
    expect(h.warnings()[0]).to.match(/get_group_msg_history repeated a page \(message_seq \d+\); the pull stops there$/)
    // a second page with new messages but no older sequence numbers
    const pages = [latest, latest.map(m => ({ ...m, message_id: m.message_id + 1000, message_seq: m.message_seq + 1000 }))]
    h.napcat.answer('get_group_msg_history', () => ({ messages: pages.shift() ?? [] }))
    await h.napcat.groupMessage({ group: 556, user: 2001, segments: mention('hi again') })
    await h.server.waitForRequests(2)
    await drained(h)
    expect(historyCalls(h)).to.have.length(4)
    expect(h.warnings()[1]).to.match(/get_group_msg_history gave a page that does not go back in time \(message_seq \d+\); the pull stops there$/)
  })

  it('a private chat is pulled through get_friend_msg_history', async () => {
    h = await OneBotHarness.start()
    h.server.script({ toolCalls: [call('send_message', { messages: ['hi Bob'] })] }).fallback({ toolCalls: [call('finish', {})] })
    h.napcat.friend(2002, { nickname: 'Bob' })
    await h.napcat.privateMessage({ user: 2002, text: 'are you awake?', deliver: false })
    await h.napcat.privateMessage({ user: 2002, text: 'hello?', deliver: false })
    await h.napcat.privateMessage({ user: 2002, text: 'answer me' })
    await h.napcat.waitForSent(1)
    await drained(h)
    // the second call finds where the history starts (a page shorter than asked may be an implementation's cap)
    const history = h.napcat.messages('private:2002')
    expect(historyCalls(h, 'get_friend_msg_history').map(c => c.params)).to.deep.equal([
      { user_id: 2002, count: 50 }, { user_id: 2002, count: 49, message_seq: history[0].message_seq },
    ])
    const facts = await factsOf(h, 'private:2002')
    expect(facts.map(f => [f.content, !!f.pulled, f.direct])).to.deep.equal([['are you awake?', true, true], ['hello?', true, true], ['answer me', false, true]])
    expect(h.server.requests).to.have.length(1)
    inOrder(lastUserText(h.server.requests[0]), ['are you awake?', 'hello?', 'answer me'])
  })
})

describe('history after downtime: configuration', function () {
  const base = (history: unknown) => ({
    models: [{ id: 'main', baseURL: 'http://127.0.0.1:1/v1', apiKey: '', model: 'm' }],
    profiles: [{ id: 'neko', model: 'main', claims: [{ bot: '*', channels: ['*'] }], history }],
  })

  it('defaults to pull: true, pullMax 50, pullMaxAgeHours 24 (the Schema and DEFAULT_HISTORY agree)', () => {
    const config = configSchema(base(undefined) as any)
    expect(config.profiles[0].history).to.deep.equal(DEFAULT_HISTORY)
    expect(DEFAULT_HISTORY).to.deep.equal({ pull: true, pullMax: 50, pullMaxAgeHours: 24 })
  })

  it('a bad value is reported with its field path and replaced by its default; the profile starts', () => {
    const checked = checkConfig(configSchema(base({ pull: true, pullMax: -3, pullMaxAgeHours: 0 }) as any))
    expect(checked.profiles.map(p => p.history)).to.deep.equal([{ pull: true, pullMax: 50, pullMaxAgeHours: 24 }])
    expect(checked.problems.map(p => [p.path, p.message, p.leftOut])).to.deep.equal([
      ['profiles[0].history.pullMax', 'must be a whole number >= 0; using the default 50', true],
      ['profiles[0].history.pullMaxAgeHours', 'must be a number > 0; using the default 24', true],
    ])
  })
})

describe('history after downtime: the tail knows the facts it holds', function () {
  const fact = (n: number, channel = 'group:1'): Entry => ({
    type: 'fact', at: n, fact: { id: `m${n}`, at: n, bot: 'onebot:1', channel, direct: false, user: { id: 'u', name: 'U' }, content: `${n}` },
  })
  const note = (n: number): Entry => ({ type: 'note', at: n, kind: 'info', text: `${n}` })

  it('on load, push, trim and clear; an admitted fact counts before it reaches the entries; ids are per channel', () => {
    const tail = new EntryTail(() => 1)   // keeps 203 entries, trims past 304
    tail.loaded([fact(1), note(2)], false)
    expect(tail.holds('group:1', 'm1')).to.equal(true)
    expect(tail.holds('group:2', 'm1')).to.equal(false)
    expect(tail.admit((fact(1) as any).fact)).to.equal(false)
    expect(tail.admit((fact(1, 'group:2') as any).fact)).to.equal(true)
    expect(tail.holds('group:2', 'm1')).to.equal(true)
    tail.push(Array.from({ length: 310 }, (_, i) => fact(i + 10)))
    expect(tail.entries).to.have.length(203)
    expect(tail.holds('group:1', 'm10')).to.equal(false)
    expect(tail.holds('group:1', 'm319')).to.equal(true)
    expect(tail.holds('group:1', `m${319 - 202}`)).to.equal(true)
    tail.clear()
    expect(tail.holds('group:1', 'm319')).to.equal(false)
    expect(tail.admit((fact(319) as any).fact)).to.equal(true)
  })
})
