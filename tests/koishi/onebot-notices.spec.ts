// Platform notices through the real koishi-plugin-adapter-onebot (6.9.4) and the fake NapCat (SPEC §19):
// pokes, recalls, bans of the bot, members joining and leaving, and the owner's kotodama.pause. The notices'
// fields follow NapCatQQ's event/notice/* (OB11PokeEvent, OB11GroupBanEvent, OB11GroupRecallNoticeEvent,
// OB11GroupIncreaseEvent, OB11GroupDecreaseEvent); the adapter's lib/index.js adaptSession names their sessions.
import { expect } from 'chai'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { notices, seg } from '../support/fakes/onebot'
import { OneBotHarness, call } from '../support/onebot-harness'
import { lastUserText, toolResultsOf } from '../support/fake-openai'
import { runtimeHome } from '../../src/runtime/runtime'
import { MAX_BAN_SECONDS } from '../../src/koishi/adapters/onebot/ban'
import { presencePart } from '../../src/presence/part'

const GROUP = 555
const mention = (h: OneBotHarness, text: string, user = 2001) =>
  h.napcat.groupMessage({ group: GROUP, user, nickname: 'Alice', segments: [seg.at(10001), seg.text(` ${text}`)] })

describe('onebot: notices', function () {
  this.timeout(20000)
  let h: OneBotHarness
  afterEach(async () => { await h?.stop() })

  const runtime = async () => (await h.app.kotodama.list())[0]
  const conversation = async () => (await runtime()).conversation(`group:${GROUP}`)
  const factsOf = async (notice?: string) => (await conversation()).entries.filter(e => e.type === 'fact' && (!notice || e.fact.notice === notice))

  it('a poke of the bot wakes it like a mention: the model reads "Alice (2001) poked you" and answers', async () => {
    h = await OneBotHarness.start()
    h.server.script({ toolCalls: [call('finish', {})] }, { toolCalls: [call('send_message', { messages: ['what?'] })] })
    await mention(h, 'hi')
    await h.server.waitForRequests(1)
    await h.settled()
    await h.napcat.poke({ group: GROUP, user: 2001 })
    await h.server.waitForRequests(2)
    expect(lastUserText(h.server.requests[1])).to.match(/\] Alice \(2001\) poked you/)
    const [sent] = await h.napcat.waitForSent(1)
    expect(sent.segments).to.deep.equal([seg.text('what?')])
    await h.settled()
  })

  it('a poke between others and members joining or leaving are stored and wake nothing; the next request shows them', async () => {
    h = await OneBotHarness.start()
    await h.napcat.groupMessage({ group: GROUP, user: 2002, nickname: 'Bob', text: 'hello' })
    // Koishi runs a message's middleware a few ticks after a notice's listeners: wait for it to be stored
    await h.until(() => !!h.app.kotodama)
    await h.idle(50)
    await h.app.kotodama.received()
    await h.napcat.poke({ group: GROUP, user: 2001, target: 2002 })
    await h.napcat.memberJoined({ group: GROUP, user: 2003 })
    await h.napcat.memberLeft({ group: GROUP, user: 2004, kicked: true })
    await h.app.kotodama.received()
    await h.idle(100)
    expect(h.server.requests).to.have.length(0)
    h.server.script({ toolCalls: [call('finish', {})] })
    await mention(h, 'what happened?')
    await h.server.waitForRequests(1)
    const text = lastUserText(h.server.requests[0])
    expect(text, text).to.match(/2001 \(2001\) poked Bob \(2002\)/)
    expect(text).to.match(/2003 \(2003\) joined the group/)
    expect(text).to.match(/2004 \(2004\) was removed from the group/)
    expect(text).to.not.match(/#notice-/)
    await h.settled()
  })

  it('wake.poke false: a poke of the bot is stored and wakes nothing', async () => {
    h = await OneBotHarness.start({ profile: { wake: { poke: false } } })
    await h.napcat.poke({ group: GROUP, user: 2001 })
    await h.until(() => !!h.app.kotodama)
    await h.app.kotodama.received()
    await h.idle(100)
    expect(h.server.requests).to.have.length(0)
    expect(await factsOf('poke')).to.have.length(1)
  })

  it('a poke storm (100 in a minute) is stored whole and wakes the mind at most twice', async () => {
    h = await OneBotHarness.start()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    for (let i = 0; i < 100; i++) await h.napcat.poke({ group: GROUP, user: 2001 })
    await h.app.kotodama.received()
    await h.settled()
    await h.idle(100)
    await h.settled()
    expect(await factsOf('poke')).to.have.length(100)
    expect(h.server.requests.length).to.be.within(1, 2)
    const held = (await factsOf('poke')).filter(e => e.type === 'fact' && e.held === 'perUser')
    expect(held.length).to.be.at.least(98)
  })

  it('a recalled message reads "[recalled]" from then on, also after a restart; the history keeps it', async () => {
    h = await OneBotHarness.start()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    const secret = await h.napcat.groupMessage({ group: GROUP, user: 2001, nickname: 'Alice', text: 'my password is hunter2' })
    await h.napcat.recall(secret.message_id)
    await mention(h, 'did you see that?')
    await h.server.waitForRequests(1)
    await h.settled()
    const first = JSON.stringify(h.server.requests[0].body)
    expect(first).to.not.include('hunter2')
    expect(lastUserText(h.server.requests[0])).to.include(`#${secret.message_id}: [recalled]`)
    await h.reload()
    // search and history:// do not show it either (SPEC §17 reads the index, which kept the words)
    h.server.script({ toolCalls: [call('search', { query: 'password' }), call('read', { url: 'history://group%3A555' })] })
    await mention(h, 'and now?')
    await h.server.waitForRequests(3)
    await h.settled()
    const later = JSON.stringify(h.server.requests.slice(1).map(r => r.body))
    expect(later, later.slice(later.indexOf('hunter2') - 600, later.indexOf('hunter2') + 200)).to.not.include('hunter2')
    expect(toolResultsOf(h.server.requests[2]).map(r => r.content).join('\n')).to.include('[recalled]')
    const dir = join(runtimeHome(h.dataDir, 'neko', h.botId), 'conversations')
    const [file] = (await readdir(dir)).filter(f => f.endsWith('.jsonl'))
    expect(await readFile(join(dir, file), 'utf8')).to.include('hunter2')   // nothing stored is lost
  })

  it('while the bot is banned a mention calls no model and sends nothing; after the ban is lifted the next mention is answered', async () => {
    h = await OneBotHarness.start()
    await h.napcat.ban({ group: GROUP, duration: 600 })
    await mention(h, 'are you there?')
    await h.app.kotodama.received()
    await h.idle(100)
    expect(h.server.requests).to.have.length(0)
    expect(h.napcat.sent).to.have.length(0)
    const held = (await factsOf()).at(-1)
    expect(held).to.deep.include({ held: 'muted' })
    const status = (await (await runtime()).status()).find(c => c.key === `group:${GROUP}`)
    expect(status?.muted).to.deep.include({ by: "platform" })
    await h.napcat.ban({ group: GROUP, lift: true })
    h.server.script({ toolCalls: [call('send_message', { messages: ['back'] })] })
    await mention(h, 'now?')
    const [sent] = await h.napcat.waitForSent(1)
    expect(sent.segments).to.deep.equal([seg.text('back')])
    await h.settled()
    const text = lastUserText(h.server.requests[0])
    expect(text).to.include('are you there?').and.include('the platform muted you here until').and.include('the platform unmuted you here')
  })

  it('a ban outlives a restart of the plugin (mutes.json); a ban of someone else mutes nothing', async () => {
    h = await OneBotHarness.start()
    await h.napcat.ban({ group: GROUP, user: 2002, duration: 600 })
    await h.napcat.ban({ group: GROUP, duration: 3600 })
    await h.app.kotodama.received()
    await h.until(() => true)
    await h.idle(50)
    await h.reload()
    await mention(h, 'hello?')
    await h.app.kotodama.received()
    await h.idle(100)
    expect(h.server.requests).to.have.length(0)
    const mutes = JSON.parse(await readFile(join(runtimeHome(h.dataDir, 'neko', h.botId), 'mutes.json'), 'utf8'))
    expect(Object.keys(mutes.mutes)).to.deep.equal([`group:${GROUP}`])
    expect(mutes.mutes[`group:${GROUP}`].by).to.equal('platform')
  })

  // NapCat reports a whole-group mute as user_id 0, duration -1; QQ's whole-group mute spares the owner and admins
  it('a whole-group mute mutes a member bot until lifted, and not an admin bot (its role asked with get_group_member_info)', async () => {
    h = await OneBotHarness.start()
    const whole = (lift = false) => ({ ...notices.groupBan(10001, GROUP, 0, 1, lift ? 0 : -1, lift ? 'lift_ban' : 'ban') })
    h.napcat.group(GROUP)
    await h.napcat.push(whole())
    await h.app.kotodama.received()
    await h.until(() => true)
    await h.idle(100)
    expect((await runtime())?.part(presencePart)?.presence.mutedUntil(`group:${GROUP}`)?.by).to.equal('platform')
    await h.napcat.push(whole(true))
    await h.idle(100)
    expect((await runtime()).part(presencePart)!.presence.mutedUntil(`group:${GROUP}`)).to.equal(undefined)
    h.napcat.member(GROUP, 10001, { role: 'admin' })
    await h.napcat.push(whole())
    await h.idle(100)
    expect((await runtime()).part(presencePart)!.presence.mutedUntil(`group:${GROUP}`)).to.equal(undefined)
    expect(h.napcat.calls.filter(c => c.action === 'get_group_member_info')).to.have.length(2)
  })

  it('a ban notice with a negative or non-numeric duration is logged and ignored; a huge one is kept as 30 days', async () => {
    h = await OneBotHarness.start()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    const ban = (duration: unknown) => ({ ...notices.groupBan(10001, GROUP, 10001, 1, 0, 'ban'), duration })
    await h.napcat.push(ban(-5))
    await h.napcat.push(ban('soon'))
    await mention(h, 'still here?')
    await h.server.waitForRequests(1)
    await h.settled()
    expect(h.warnings().filter(w => w.includes('a ban notice of') && w.includes('was ignored'))).to.have.length(2)
    await h.napcat.push(ban(10 ** 12))
    await h.app.kotodama.received()
    await h.idle(50)
    const mute = (await runtime()).part(presencePart)!.presence.mutedUntil(`group:${GROUP}`)
    expect(mute!.until - Date.now()).to.be.within(MAX_BAN_SECONDS * 1000 - 60_000, MAX_BAN_SECONDS * 1000)
    expect(h.warnings().some(w => w.includes('longer than QQ allows'))).to.equal(true)
  })

  it('a notice for a channel no profile claims is ignored without a crash', async () => {
    h = await OneBotHarness.start({ profile: { claims: [{ bot: 'onebot:10001', channels: [`group:${GROUP}`] }] } })
    await h.napcat.poke({ group: 777, user: 2001 })
    await h.napcat.ban({ group: 777, duration: 600 })
    const m = await h.napcat.groupMessage({ group: 777, user: 2001, text: 'x' })
    await h.napcat.recall(m.message_id)
    h.server.script({ toolCalls: [call('finish', {})] })
    await mention(h, 'hi')
    await h.server.waitForRequests(1)
    await h.settled()
    expect(h.server.requests).to.have.length(1)
    expect((await h.app.kotodama.list()).map(r => r.bot)).to.deep.equal([h.botId])
  })

  it('kotodama.pause 10 mutes the mind where it is written; kotodama.pause 0 ends it', async () => {
    h = await OneBotHarness.start({ config: { trust: { owners: ['onebot:2001', 'onebot:2002'] } } })
    await h.napcat.groupMessage({ group: GROUP, user: 2001, text: 'kotodama.pause 10' })
    const [paused] = await h.napcat.waitForSent(1)
    expect(JSON.stringify(paused.segments)).to.include('Paused here until')
    await mention(h, 'hello?')
    await h.app.kotodama.received()
    await h.idle(100)
    expect(h.server.requests).to.have.length(0)
    await h.napcat.groupMessage({ group: GROUP, user: 2001, text: 'kotodama.pause 0' })
    const [, resumed] = await h.napcat.waitForSent(2)
    expect(JSON.stringify(resumed.segments)).to.include('may speak here again')
    h.server.script({ toolCalls: [call('send_message', { messages: ['hi'] })] })
    await mention(h, 'and now?')
    await h.napcat.waitForSent(3)
    await h.settled()
    expect(lastUserText(h.server.requests[0])).to.include('the owner paused you here').and.include("the owner's pause here ended")
  })

  it('kotodama.pause without minutes pauses for an hour (SPEC §19 default 60)', async () => {
    h = await OneBotHarness.start({ config: { trust: { owners: ['onebot:2001', 'onebot:2002'] } } })
    await h.napcat.groupMessage({ group: GROUP, user: 2001, text: 'kotodama.pause' })
    await h.napcat.waitForSent(1)
    const mute = (await runtime()).part(presencePart)!.presence.mutedUntil(`group:${GROUP}`)!
    expect(mute.by).to.equal('owner')
    expect(mute.until - Date.now()).to.be.within(59 * 60_000, 60 * 60_000)
  })

  it('kotodama.pause does not lift the platform\'s ban', async () => {
    h = await OneBotHarness.start({ config: { trust: { owners: ['onebot:2001', 'onebot:2002'] } } })
    await h.napcat.ban({ group: GROUP, duration: 600 })
    await h.app.kotodama.received()
    await h.idle(50)
    await h.napcat.groupMessage({ group: GROUP, user: 2001, text: 'kotodama.pause 0' })
    // the command's answer is itself refused by a muted group on QQ; the fake takes it
    const [answer] = await h.napcat.waitForSent(1)
    expect(JSON.stringify(answer.segments)).to.include('The platform muted the bot here until')
    expect((await runtime()).part(presencePart)!.presence.mutedUntil(`group:${GROUP}`)?.by).to.equal('platform')
  })

  it('kotodama.status shows the platform\'s capability line and the mute', async () => {
    h = await OneBotHarness.start({
      models: [{ id: 'ears', model: 'whisper-1' }], profile: { voice: { stt: 'ears' } }, config: { trust: { owners: ['onebot:2001', 'onebot:2002'] } },
    })
    await h.napcat.groupMessage({ group: GROUP, user: 2001, text: 'hello' })
    await h.napcat.ban({ group: GROUP, duration: 600 })
    await h.app.kotodama.received()
    await h.idle(50)
    await h.napcat.privateMessage({ user: 2002, text: 'kotodama.status' })
    const [status] = await h.napcat.waitForSent(1)
    const text = status.segments.map(s => s.data.text).join('')
    expect(text).to.include('platform OneBot (NapCat, Lagrange): history pull on, sticker mark on, voice on, poke on, mute notices on')
    expect(text).to.include('passive replies off (not needed: every message may be sent)')
    expect(text).to.match(/group:555: \d+ entries, idle; muted by the platform until \d{4}-\d\d-\d\d \d\d:\d\d/)
  })
})
