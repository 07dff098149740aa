// The fake NapCat (tests/support/fakes/onebot) on its own, through a plain WebSocket client, and kotodama on
// QQ through the real koishi-plugin-adapter-onebot (6.9.4) connected to it. Each test names the source its rule follows.
import { expect } from 'chai'
import { WebSocket } from 'ws'
import { Session, Universal } from 'koishi'
import { FakeNapCat, seg, shareCard } from '../support/fakes/onebot'
import { OneBotHarness, call } from '../support/onebot-harness'
import { lastUserText, toolResultsOf } from '../support/fake-openai'

/** A bare OneBot client: every frame it receives, and `act` resolving with the answer of the same echo. */
async function client(napcat: FakeNapCat, o: { path?: string; token?: string } = {}) {
  const frames: any[] = []
  const ws = new WebSocket(napcat.url + (o.path ?? '/'), o.token ? { headers: { Authorization: `Bearer ${o.token}` } } : {})
  ws.on('message', data => frames.push(JSON.parse(data.toString())))
  const closed = new Promise<void>(resolve => ws.once('close', () => resolve()))
  await new Promise<void>((resolve, reject) => { ws.once('open', () => resolve()); ws.once('error', reject) })
  let echo = 0
  const act = async (action: string, params: any = {}, timeoutMs = 2000): Promise<any> => {
    const id = `e${++echo}`
    ws.send(JSON.stringify({ action, params, echo: id }))
    await napcat.until(() => frames.some(f => f.echo === id), `the answer to ${action}`, timeoutMs)
    return frames.find(f => f.echo === id)
  }
  return { ws, frames, act, closed }
}

describe('onebot: the fake NapCat', function () {
  let napcat: FakeNapCat
  afterEach(async () => { await napcat?.close() })

  // NapCat action/OneBotAction.ts
  it('answers an action as OB11Response does: status, retcode, data, message, wording, the echo sent back', async () => {
    napcat = await FakeNapCat.start({ selfId: 10001, nickname: 'Neko' })
    const c = await client(napcat)
    const r = await c.act('get_login_info')
    expect(r).to.deep.equal({
      status: 'ok', retcode: 0, data: { user_id: 10001, nickname: 'Neko' }, message: '', wording: '', echo: 'e1', stream: 'normal-action',
    })
    const v = await c.act('get_version_info')
    expect(v.data).to.include({ protocol_version: 'v11' })
    expect(napcat.calls.map(x => x.action)).to.deep.equal(['get_login_info', 'get_version_info'])
    c.ws.close()
  })

  // NapCat network/websocket-server.ts (createServer, connectEvent, startHeartbeat, authorize)
  it('posts a lifecycle connect event and heartbeats to an event connection, none to /api; a wrong token is 1403 and closed', async () => {
    napcat = await FakeNapCat.start({ token: 'secret', heartbeatMs: 30 })
    const events = await client(napcat, { token: 'secret' })
    await napcat.until(() => events.frames.some(f => f.meta_event_type === 'heartbeat'), 'a heartbeat')
    expect(events.frames[0]).to.include({ post_type: 'meta_event', meta_event_type: 'lifecycle', sub_type: 'connect', self_id: 10001 })
    expect(events.frames.find(f => f.meta_event_type === 'heartbeat')).to.deep.include({ status: { online: true, good: true }, interval: 30 })
    const api = await client(napcat, { path: '/api', token: 'secret' })
    expect((await api.act('get_status')).data).to.include({ online: true, good: true })
    expect(api.frames.filter(f => f.post_type)).to.have.length(0)
    const wrong = await client(napcat, { token: 'nope' })
    await wrong.closed
    expect(wrong.frames).to.deep.equal([
      { status: 'failed', retcode: 1403, data: null, message: 'token验证失败', wording: 'token验证失败', echo: null, stream: 'normal-action' },
    ])
    events.ws.close()
    api.ws.close()
  })

  // NapCat network/websocket-server.ts handleMessage
  it('an unknown action is failed with retcode 1404 "不支持的API <name>", and is listed', async () => {
    napcat = await FakeNapCat.start()
    const c = await client(napcat)
    const r = await c.act('get_no_such_thing', { a: 1 })
    const words = '不支持的API get_no_such_thing'
    expect(r).to.deep.include({ status: 'failed', retcode: 1404, data: null, message: words, wording: words, echo: 'e1' })
    expect(napcat.unknown).to.deep.equal(['get_no_such_thing'])
    c.ws.close()
  })

  // NapCat action/msg/SendMsg.ts (normalize, createContext), GetMsg.ts, DeleteMsg.ts; OneBot v11 message/string.md (CQ escaping)
  it('sends take array segments or a CQ string and answer a numeric message_id kept in the history; get_msg and delete_msg find it', async () => {
    napcat = await FakeNapCat.start()
    const c = await client(napcat)
    const a = await c.act('send_group_msg', { group_id: 555, message: [seg.text('hello '), seg.at(2001)] })
    expect(a).to.include({ status: 'ok', retcode: 0 })
    expect(a.data.message_id).to.be.a('number')
    const b = await c.act('send_msg', { user_id: 2001, message: 'hi [CQ:face,id=178] &#91;x&#93;' })
    expect(napcat.sent.map(s => [s.action, s.message_type, s.target])).to.deep.equal([['send_group_msg', 'group', 555], ['send_msg', 'private', 2001]])
    expect(napcat.sent[1].segments).to.deep.equal([seg.text('hi '), { type: 'face', data: { id: '178' } }, seg.text(' [x]')])
    expect(napcat.messages('group:555').map(m => m.message_seq)).to.deep.equal([a.data.message_id])
    const got = await c.act('get_msg', { message_id: b.data.message_id })
    expect(got.data).to.include({ message_id: b.data.message_id, message_seq: b.data.message_id, message_type: 'private', user_id: 10001 })
    expect((await c.act('delete_msg', { message_id: b.data.message_id })).retcode).to.equal(0)
    expect(await c.act('get_msg', { message_id: b.data.message_id })).to.deep.include({ status: 'failed', retcode: 1200, message: '消息不存在' })
    // a missing target: NapCat's payload check (1400) or createContext's words (1200)
    expect((await c.act('send_group_msg', { message: 'x' })).retcode).to.equal(1400)
    expect(await c.act('send_msg', { message: 'x' })).to.deep.include({ retcode: 1200, message: '请指定正确的 group_id 或 user_id' })
    c.ws.close()
  })

  // NapCat action/go-cqhttp/GetGroupMsgHistory.ts (getMsgsIncludeSelf: oldest first, the start message included); the cap of 50: shared/notes/platforms.md
  it('pages a history of 120 by message_seq, at most 50 a call, newest last, each page ending at (and including) its message_seq', async () => {
    napcat = await FakeNapCat.start()
    for (let i = 1; i <= 120; i++) await napcat.groupMessage({ group: 555, user: 2001 + (i % 3), text: `m${i}`, deliver: false })
    const c = await client(napcat)
    const texts = (r: any) => r.data.messages.map((m: any) => m.message[0].data.text)
    const first = await c.act('get_group_msg_history', { group_id: 555, count: 80 })
    expect(texts(first)).to.have.length(50)
    expect(texts(first)[0]).to.equal('m71')
    expect(texts(first).at(-1)).to.equal('m120')
    const second = await c.act('get_group_msg_history', { group_id: 555, message_seq: first.data.messages[0].message_seq, count: 50 })
    expect([texts(second)[0], texts(second).at(-1), texts(second).length]).to.deep.equal(['m22', 'm71', 50])
    const third = await c.act('get_group_msg_history', { group_id: 555, message_seq: second.data.messages[0].message_seq, count: 50 })
    expect([texts(third)[0], texts(third).at(-1), texts(third).length]).to.deep.equal(['m1', 'm22', 22])
    const all = new Set([...texts(first), ...texts(second), ...texts(third)])
    expect(all.size).to.equal(120)
    // an unknown seq, as NapCat: the history is empty, so the action throws "消息<seq>不存在" (1200)
    const missing = await c.act('get_group_msg_history', { group_id: 555, message_seq: 42, count: 20 })
    expect(missing).to.deep.include({ status: 'failed', retcode: 1200, message: '消息42不存在' })
    c.ws.close()
  })

  // the failure's shape: NapCat action/OneBotAction.ts (an action that throws: 1200 with its message)
  it('a test scripts a failure, a hang or a different answer for any action', async () => {
    napcat = await FakeNapCat.start()
    const muted = 'EventChecker Failed: NTEvent serviceAndMethod:NodeIKernelMsgService/sendMsg EventRet: {"result":120,"errMsg":"禁言中"}'
    napcat.fail('send_group_msg', { retcode: 1200, message: muted, wording: '禁言中' }, 1)
    napcat.hang('get_msg', 1)
    napcat.answer('get_group_info', p => ({ group_id: Number(p.group_id), group_name: 'Renamed', member_count: 3, max_member_count: 200 }))
    const c = await client(napcat)
    const failed = await c.act('send_group_msg', { group_id: 555, message: 'x' })
    expect(failed).to.deep.include({ status: 'failed', retcode: 1200, data: null, wording: '禁言中' })
    expect(napcat.sent).to.have.length(0)
    expect((await c.act('send_group_msg', { group_id: 555, message: 'x' })).retcode).to.equal(0)
    let hung: unknown
    await c.act('get_msg', { message_id: 1 }, 200).catch(e => { hung = e })
    expect(String(hung)).to.match(/timed out/)
    expect((await c.act('get_group_info', { group_id: 9 })).data).to.include({ group_name: 'Renamed' })
    napcat.reset()
    expect((await c.act('get_group_info', { group_id: 9 })).retcode).to.equal(1200)
    c.ws.close()
  })
})

describe('onebot: kotodama through the real koishi-plugin-adapter-onebot', function () {
  let h: OneBotHarness
  afterEach(async () => { await h?.stop() })

  // koishi-plugin-adapter-onebot src/ws.ts (WsClient.prepare, accept) and src/bot/index.ts (initialize)
  it('connects with the token as a Bearer header, calls get_login_info and get_guild_service_profile, and is online', async () => {
    h = await OneBotHarness.start({ token: 'secret' })
    expect(h.napcat.connections[0].headers.authorization).to.equal('Bearer secret')
    expect(h.napcat.calls.map(c => c.action)).to.deep.equal(['get_login_info', 'get_guild_service_profile'])
    expect(h.napcat.unknown).to.deep.equal([])
    expect(h.bot.user.name).to.equal('Neko')
    expect(h.warnings()).to.deep.equal([])
  })

  // koishi-plugin-adapter-onebot src/utils.ts (adaptMessage: `at` → <at>) and src/bot/message.ts (flush → sendGroupMsg with segments)
  it('a group message that @-mentions the bot reaches the model, and send_message arrives as send_group_msg with array segments', async () => {
    h = await OneBotHarness.start()
    h.server.script({ toolCalls: [call('send_message', { messages: ['hello Alice', 'second line'] })] })
    const m = await h.napcat.groupMessage({ group: 555, user: 2001, nickname: 'Alice', card: 'Ali', segments: [seg.at(10001), seg.text(' hi there')] })
    await h.server.waitForRequests(1)
    expect(lastUserText(h.server.requests[0])).to.include(`Ali (2001) #${m.message_id}: <at id="10001"/> hi there`)
    const sent = await h.napcat.waitForSent(2)
    expect(sent.map(s => [s.action, s.target])).to.deep.equal([['send_group_msg', 555], ['send_group_msg', 555]])
    expect(Array.isArray(sent[0].raw)).to.equal(true)
    expect(sent.map(s => s.segments)).to.deep.equal([[seg.text('hello Alice')], [seg.text('second line')]])
    await h.settled()
    expect(h.server.requests).to.have.length(1)
    expect(h.warnings()).to.deep.equal([])
  })

  // LLOneBot src/onebot11/entities.ts (`mface` with its gif's url); the adapter passes unknown segments through; SPEC §19 stickers
  it('a market face reaches the model as a sticker, without its platform URL (issue 27 finding 3)', async () => {
    h = await OneBotHarness.start()
    h.server.script({ toolCalls: [call('finish', {})] })
    const url = 'https://gxh.vip.qq.com/club/item/parcel/item/a1/a1b2c3/raw300.gif'
    const mface = seg.mface({ emoji_id: 'a1b2c3', emoji_package_id: 230245, key: 'k3y', summary: '[好耶]', url })
    await h.napcat.groupMessage({ group: 555, user: 2001, nickname: 'Alice', segments: [seg.at(10001), seg.text(' look '), mface] })
    await h.server.waitForRequests(1)
    await h.settled()
    const text = lastUserText(h.server.requests[0])
    expect(text).to.match(/look \[sticker: asset:\/\/[0-9a-f-]{36} 好耶\]/)
    expect(text).to.not.include('gxh.vip.qq.com').and.not.include('k3y')
    expect(JSON.stringify(h.server.requests[0].body)).to.not.match(/https?:\/\/gxh/)
  })

  // SPEC §19 "cards (json/xml, shares): title, description and link"; the card as QQ sends it (an ark)
  it('a share card reaches the model as its title, description and link, without the platform\'s preview picture', async () => {
    h = await OneBotHarness.start()
    h.server.script({ toolCalls: [call('finish', {})] })
    const card = shareCard({ title: '猫咪合集', desc: '十分钟的猫', url: 'https://b23.tv/abc123' })
    await h.napcat.groupMessage({ group: 555, user: 2001, nickname: 'Alice', segments: [seg.at(10001), seg.text(' look '), seg.json(card)] })
    await h.server.waitForRequests(1)
    await h.settled()
    const text = lastUserText(h.server.requests[0])
    expect(text).to.include('[card: 猫咪合集 — 十分钟的猫 (https://b23.tv/abc123)]')
    expect(text).to.not.include('example.invalid').and.not.include('com.tencent.structmsg')
  })

  // koishi-plugin-adapter-onebot src/bot/index.ts (SenderError: the action, its args and the retcode)
  it('a refused send tells the mind the action and its retcode, not the request it echoes (issue 27 finding 2)', async () => {
    h = await OneBotHarness.start()
    h.server.script({ toolCalls: [call('send_message', { messages: ['hello Alice'] })] }).fallback({ toolCalls: [call('finish', {})] })
    h.napcat.fail('send_group_msg', { retcode: 1200, message: 'muted', wording: '禁言中' }, 1)
    await h.napcat.groupMessage({ group: 555, user: 2001, nickname: 'Alice', segments: [seg.at(10001), seg.text(' hi')] })
    await h.server.waitForRequests(2)
    await h.settled()
    const told = JSON.parse(toolResultsOf(h.server.requests[1]).at(-1)!.content)
    expect(told.error).to.deep.equal({ name: 'SendFailed', message: 'send_group_msg failed: retcode 1200' })
    expect(h.warnings().some(w => w.endsWith('was refused: send_group_msg failed: retcode 1200'))).to.equal(true)
  })

  // koishi-plugin-adapter-onebot src/bot/message.ts (a `private:` channel → sendPrivateMsg)
  it('a private message reaches the model, and the answer arrives as send_private_msg', async () => {
    h = await OneBotHarness.start()
    h.server.script({ toolCalls: [call('send_message', { messages: ['hi in private'] })] })
    await h.napcat.privateMessage({ user: 2002, nickname: 'Bob', segments: [seg.text('are you there?')] })
    await h.server.waitForRequests(1)
    expect(lastUserText(h.server.requests[0])).to.match(/Bob \(2002\) #\d+: are you there\?/)
    const [sent] = await h.napcat.waitForSent(1)
    expect(sent).to.deep.include({ action: 'send_private_msg', message_type: 'private', target: 2002, segments: [seg.text('hi in private')] })
    await h.settled()
  })

  // koishi-plugin-adapter-onebot src/ws.ts accept (close → bot.offline); 6.9.4 does not reconnect in `ws` mode (its PR #81)
  it('after the socket drops the bot is offline; reloading the adapter brings it back and a mention is answered', async () => {
    h = await OneBotHarness.start()
    h.napcat.disconnect()
    await h.until(() => h.bot?.status !== Universal.Status.ONLINE, 'the bot to go offline')
    await h.reloadAdapter()
    expect(h.napcat.connections.filter(c => c.socket.readyState === WebSocket.OPEN)).to.have.length(1)
    h.server.script({ toolCalls: [call('send_message', { messages: ['back again'] })] })
    await h.napcat.groupMessage({ group: 555, user: 2001, segments: [seg.at(10001), seg.text(' still there?')] })
    const [sent] = await h.napcat.waitForSent(1)
    expect(sent.segments).to.deep.equal([seg.text('back again')])
  })

  // koishi-plugin-adapter-onebot src/utils.ts adaptSession; the notices' fields: NapCat event/notice/*
  it("the fake's notices decode in the adapter as the sessions Koishi names", async () => {
    h = await OneBotHarness.start()
    const seen: string[] = []
    // Koishi's event map does not name every session type the adapter emits
    const on = (name: string, listener: (s: Session) => void) => h.app.on(name as any, listener)
    on('notice', s => { seen.push(`notice/${s.subtype} ${s.channelId} ${s.userId}→${(s as any).targetId}`) })
    on('guild-member', s => { seen.push(`guild-member/${s.subtype} ${s.guildId} ${s.userId}`) })
    on('message-deleted', s => { seen.push(`message-deleted/${s.subtype} ${s.channelId} ${s.messageId}`) })
    on('guild-member-added', s => { seen.push(`guild-member-added ${s.guildId} ${s.userId}`) })
    on('guild-member-deleted', s => { seen.push(`guild-member-deleted ${s.guildId} ${s.userId}`) })
    const m = await h.napcat.groupMessage({ group: 555, user: 2001, text: 'hunter2' })
    await h.napcat.poke({ group: 555, user: 2001 })
    await h.napcat.poke({ user: 2002 })
    await h.napcat.ban({ group: 555, duration: 600 })
    await h.napcat.recall(m.message_id)
    await h.napcat.memberJoined({ group: 555, user: 2003 })
    await h.napcat.memberLeft({ group: 555, user: 2003 })
    await h.until(() => seen.length === 6, 'six sessions')
    expect(seen).to.deep.equal([
      'notice/poke 555 2001→10001',
      'notice/poke private:2002 2002→10001',
      'guild-member/ban 555 10001',
      `message-deleted/group 555 ${m.message_id}`,
      'guild-member-added 555 2003',
      'guild-member-deleted 555 2003',
    ])
  })
})
