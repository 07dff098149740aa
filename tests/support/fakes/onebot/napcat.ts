// A fake NapCat: a OneBot v11 implementation's forward WebSocket server on 127.0.0.1, which a OneBot
// client (koishi-plugin-adapter-onebot with `protocol: 'ws'`) connects to, sends actions over and receives
// events from. Follows NapCatQQ's source: packages/napcat-onebot/network/websocket-server.ts (token check
// by `Authorization: Bearer` or `?access_token`, failing with 1403; `/api` connections get no events; a
// lifecycle `connect` event on connection, then heartbeats; an unknown action is `failed`/1404 "不支持的API
// <name>"), action/OneBotAction.ts (`OB11Response`: `{ status, retcode, data, message, wording, echo, stream }`;
// a bad payload is 1400, an action that throws is 1200 with its message), and the actions under action/**
// (msg/SendMsg.ts, msg/GetMsg.ts, msg/DeleteMsg.ts, go-cqhttp/GetGroupMsgHistory.ts, GetFriendMsgHistory.ts,
// GetForwardMsg.ts, system/*, group/*, user/*). The OneBot v11 spec (api/public.md, communication/ws.md)
// for what NapCat does not change.
import { createServer, IncomingMessage, Server } from 'node:http'
import { AddressInfo } from 'node:net'
import { WebSocket, WebSocketServer } from 'ws'
import { groupMessageEvent, Ids, MessageDescription, meta, notices, OB11Message, privateMessageEvent, Role } from './events'
import { normalizeMessage, Segment, seg } from './segments'
import { until } from '../../app-waits'
import { actHandlers, type EmojiLike, type Poke } from './acts'

// Captured at load: tests install @sinonjs/fake-timers, and the fake's own waiting keeps real time.
const realSetTimeout = globalThis.setTimeout
const realSetInterval = globalThis.setInterval
const realClearInterval = globalThis.clearInterval

/** A failure as NapCat reports it: `status: 'failed'`, a retcode, and `message` (also `wording` unless given). */
export interface Failure { retcode: number; message: string; wording?: string }

/** Thrown by an action handler (`answer`) to fail with a chosen retcode; any other error is NapCat's 1200. */
export class ActionError extends Error {
  constructor(readonly retcode: number, message: string, readonly wording = message) { super(message) }
}

/** One scripted answer to an action, consumed in order (`times` uses, default 1; Infinity stays). */
export interface Step {
  /** answer with this data (`ok`) */
  data?: unknown
  fail?: Failure
  /** never answer (the adapter's request times out after its `responseTimeout`) */
  hang?: boolean
  /** real ms before answering */
  delayMs?: number
  times?: number
}

export type Handler = (params: any, call: ActionCall) => unknown | Promise<unknown>

export interface Response { status: 'ok' | 'failed'; retcode: number; data: unknown; message: string; wording: string; echo: unknown; stream: 'normal-action' }

export interface ActionCall {
  index: number
  action: string
  params: any
  echo: unknown
  /** filled when the fake answers (never, for a hang) */
  response?: Response
}

export interface SentMessage {
  action: string
  message_type: 'group' | 'private'
  /** the group, or the user of a private chat */
  target: number
  segments: Segment[]
  /** the `message` field as it came: a CQ string when the client sent one */
  raw: unknown
  message_id: number
  message_seq: number
  /** when it arrived (real ms since the epoch) */
  at: number
}

export interface Connection { url: string; headers: IncomingMessage['headers']; events: boolean; socket: WebSocket }

export interface FakeNapCatOptions {
  selfId?: number
  nickname?: string
  /** NapCat's `token`: required of every connection when set */
  token?: string
  /** ms between heartbeats (NapCat's `heartInterval`, 30000 by default); 0 sends none */
  heartbeatMs?: number
  /** most messages a history call returns (the count asked for is capped at this) */
  historyMax?: number
  /** NapCat's packet backend is there (pokes need it); default true */
  packet?: boolean
}

/** A message a test describes: `segments`, or `text` for one text segment; `deliver: false` stores it without posting it. */
export type Described = Omit<MessageDescription, 'segments'> & { segments?: Segment[]; text?: string; deliver?: boolean }

interface Group { group_id: number; group_name: string; member_count: number; max_member_count: number; group_all_shut: number; group_remark: string }
interface Member { group_id: number; user_id: number; nickname: string; card: string; role: Role; join_time: number; last_sent_time: number; title: string }
interface User { user_id: number; nickname: string; remark: string; sex: 'male' | 'female' | 'unknown'; age: number }

const conversationOf = (m: { message_type: string; group_id?: number; user_id: number; target_id?: number }) =>
  m.message_type === 'group' ? `group:${m.group_id}` : `private:${m.target_id ?? m.user_id}`

export class FakeNapCat {
  readonly selfId: number
  nickname: string
  /** every action received, in order */
  readonly calls: ActionCall[] = []
  /** every message the client sent (send_group_msg, send_private_msg, send_msg, the forward sends) */
  readonly sent: SentMessage[] = []
  /** actions the fake does not know (answered 1404, like NapCat) */
  readonly unknown: string[] = []
  readonly connections: Connection[] = []
  /** every event pushed, meta events included */
  readonly events: any[] = []
  readonly groups = new Map<number, Group>()
  readonly members = new Map<number, Map<number, Member>>()
  readonly users = new Map<number, User>()
  readonly friends = new Set<number>()
  /** forwarded messages by forward id, for get_forward_msg */
  readonly forwards = new Map<string, OB11Message[]>()
  /** set_msg_emoji_like calls NapCat carried out (acts.ts) */
  readonly emojiLikes: EmojiLike[] = []
  /** pokes NapCat sent (group_poke, friend_poke, send_poke) */
  readonly pokes: Poke[] = []
  /** message ids taken back through delete_msg */
  readonly deleted: number[] = []
  private history = new Map<string, OB11Message[]>()
  private byId = new Map<number, OB11Message>()
  private recalled = new Set<number>()
  private seqs = new Map<string, number>()
  private nextId = 1_820_000_001
  private steps = new Map<string, Step[]>()
  private handlers = new Map<string, Handler>()
  private heartbeat: ReturnType<typeof setInterval> | undefined
  private readonly wss: WebSocketServer
  private readonly options: Required<Omit<FakeNapCatOptions, 'token'>> & { token?: string }

  private constructor(private readonly server: Server, o: FakeNapCatOptions) {
    this.options = { selfId: 10001, nickname: 'Neko', heartbeatMs: 30000, historyMax: 50, packet: true, ...o }
    this.selfId = this.options.selfId
    this.nickname = this.options.nickname
    this.wss = new WebSocketServer({ server })
    this.wss.on('connection', (socket, req) => this.accept(socket, req))
  }

  static async start(o: FakeNapCatOptions = {}): Promise<FakeNapCat> {
    const server = createServer((_req, res) => { res.statusCode = 426; res.end('websocket only') })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    return new FakeNapCat(server, o)
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port
  }

  /** The endpoint a client connects to: `ws://127.0.0.1:<port>` (events and actions, as NapCat's `/`). */
  get url(): string {
    return `ws://127.0.0.1:${this.port}`
  }

  // ---- scripting ----

  /** Queues answers for `action`, used before its handler, in order. */
  script(action: string, ...steps: Step[]): this {
    const queue = this.steps.get(action) ?? []
    queue.push(...steps.map(s => ({ times: 1, ...s })))
    this.steps.set(action, queue)
    return this
  }

  /** `action` fails as NapCat reports a failure (`times` calls; default every call until `reset`). */
  fail(action: string, failure: Failure, times = Infinity): this {
    return this.script(action, { fail: failure, times })
  }

  /** `action` never answers (`times` calls; default every call until `reset`). */
  hang(action: string, times = Infinity): this {
    return this.script(action, { hang: true, times })
  }

  /** Replaces what `action` answers (an unknown action becomes known); `undefined` restores the fake's own. */
  answer(action: string, handler: Handler | undefined): this {
    if (handler) this.handlers.set(action, handler)
    else this.handlers.delete(action)
    return this
  }

  /** Forgets the scripts and replaced answers (not the state). */
  reset(): void {
    this.steps.clear()
    this.handlers.clear()
  }

  // ---- state ----

  group(id: number, o: Partial<Omit<Group, 'group_id'>> = {}): Group {
    const fresh: Group = { group_id: id, group_name: `group${id}`, member_count: 0, max_member_count: 500, group_all_shut: 0, group_remark: '' }
    const group = { ...this.groups.get(id) ?? fresh, ...o }
    this.groups.set(id, group)
    if (!this.members.has(id)) this.members.set(id, new Map())
    this.member(id, this.selfId, { nickname: this.nickname })
    return group
  }

  member(group: number, user: number, o: Partial<Omit<Member, 'group_id' | 'user_id'>> = {}): Member {
    if (!this.members.has(group)) this.group(group)
    const members = this.members.get(group)
    const fresh: Member = {
      group_id: group, user_id: user, nickname: `user${user}`, card: '', role: 'member', join_time: 1700000000, last_sent_time: 0, title: '',
    }
    const member: Member = { ...members.get(user) ?? fresh, ...o }
    members.set(user, member)
    this.groups.get(group).member_count = members.size
    this.user(user, { nickname: member.nickname })
    return member
  }

  user(id: number, o: Partial<Omit<User, 'user_id'>> = {}): User {
    const user = { ...this.users.get(id) ?? { user_id: id, nickname: `user${id}`, remark: '', sex: 'unknown' as const, age: 0 }, ...o }
    this.users.set(id, user)
    return user
  }

  friend(id: number, o: Partial<Omit<User, 'user_id'>> = {}): User {
    this.friends.add(id)
    return this.user(id, o)
  }

  /** A conversation's messages, oldest first: `group:<id>` or `private:<user>`. */
  messages(conversation: string): OB11Message[] {
    return [...this.history.get(conversation) ?? []]
  }

  message(id: number): OB11Message | undefined {
    return this.byId.get(id)
  }

  // ---- events ----

  /** Sends an event to every event connection; resolves when written. */
  async push(event: any): Promise<void> {
    this.events.push(event)
    const data = JSON.stringify(event)
    await Promise.all(this.connections.filter(c => c.events && c.socket.readyState === WebSocket.OPEN)
      .map(c => new Promise<void>(resolve => c.socket.send(data, () => resolve()))))
  }

  /**
   * A group message: stored in the group's history (with NapCat's ids) and, unless `deliver: false`
   * (said while the client was away), posted as an event. The group and sender become known.
   */
  async groupMessage(d: Described & { group: number }): Promise<OB11Message> {
    const group = this.groups.get(d.group) ?? this.group(d.group)
    const known = this.members.get(d.group)?.get(d.user)
    this.member(d.group, d.user, {
      nickname: d.nickname ?? known?.nickname ?? `user${d.user}`, card: d.card ?? known?.card ?? '', role: d.role ?? known?.role ?? 'member',
      last_sent_time: d.time ?? Math.floor(Date.now() / 1000),
    })
    const member = this.members.get(d.group).get(d.user)
    const full = { ...d, segments: d.segments ?? [seg.text(d.text ?? '')], nickname: member.nickname, card: member.card, role: member.role }
    const event = groupMessageEvent(this.selfId, group, full, this.ids(`group:${d.group}`))
    this.store(event)
    if (d.deliver !== false) await this.push(event)
    return event
  }

  /** A private message from a friend, stored and (unless `deliver: false`) posted. */
  async privateMessage(d: Described): Promise<OB11Message> {
    const user = this.friends.has(d.user) ? this.users.get(d.user) : this.friend(d.user, { nickname: d.nickname ?? `user${d.user}` })
    const full = { ...d, segments: d.segments ?? [seg.text(d.text ?? '')], nickname: d.nickname ?? user.nickname }
    const event = privateMessageEvent(this.selfId, full, this.ids(`private:${d.user}`))
    this.store(event)
    if (d.deliver !== false) await this.push(event)
    return event
  }

  /** A poke: in a group when `group` is given, else in the private chat with `user`; `target` defaults to the bot. */
  async poke(o: { user: number; group?: number; target?: number }): Promise<any> {
    const target = o.target ?? this.selfId
    const event = o.group !== undefined
      ? notices.groupPoke(this.selfId, o.group, o.user, target)
      : notices.friendPoke(this.selfId, o.user, o.user, target)
    await this.push(event)
    return event
  }

  /**
   * A reaction `emoji` (QQ's emoji id, a string) by `user` (0: NapCat did not say) to message `message` of
   * `group`. As api/group.ts createGroupEmojiLikeEvent: no notice when NapCat does not find the message.
   */
  async emojiLike(o: { group: number; message: number; emoji: string; user?: number; add?: boolean; count?: number }): Promise<any> {
    if (!this.byId.has(o.message)) return undefined
    const event = notices.groupMsgEmojiLike(this.selfId, o.group, o.user ?? 0, o.message, o.emoji, o.add ?? true, o.count ?? 1)
    await this.push(event)
    return event
  }

  /** A mute of `user` (default the bot; 0 for the whole group) for `duration` seconds, or its end (`lift: true`). */
  async ban(o: { group: number; user?: number; operator?: number; duration?: number; lift?: boolean }): Promise<any> {
    const event = notices.groupBan(this.selfId, o.group, o.user ?? this.selfId, o.operator ?? 1, o.lift ? 0 : o.duration ?? 600, o.lift ? 'lift_ban' : 'ban')
    await this.push(event)
    return event
  }

  /** A message recalled by its author (or `operator`): `get_msg` no longer finds it; the notice is posted. */
  async recall(messageId: number, operator?: number): Promise<any> {
    const m = this.byId.get(messageId)
    if (!m) throw new Error(`no message ${messageId}`)
    this.recalled.add(messageId)
    const event = m.message_type === 'group'
      ? notices.groupRecall(this.selfId, m.group_id, m.user_id, operator ?? m.user_id, messageId)
      : notices.friendRecall(this.selfId, m.user_id, messageId)
    await this.push(event)
    return event
  }

  async memberJoined(o: { group: number; user: number; operator?: number; nickname?: string }): Promise<any> {
    this.member(o.group, o.user, o.nickname ? { nickname: o.nickname } : {})
    const event = notices.groupIncrease(this.selfId, o.group, o.user, o.operator ?? 0)
    await this.push(event)
    return event
  }

  async memberLeft(o: { group: number; user: number; operator?: number; kicked?: boolean }): Promise<any> {
    this.members.get(o.group)?.delete(o.user)
    const event = notices.groupDecrease(this.selfId, o.group, o.user, o.operator ?? (o.kicked ? 1 : 0), o.kicked ? 'kick' : 'leave')
    await this.push(event)
    return event
  }

  /** Registers a forward's messages under `id` (for a `forward` segment and get_forward_msg). */
  forward(id: string, items: { user: number; nickname?: string; segments: Segment[] }[]): OB11Message[] {
    const messages = items.map(i => ({
      ...groupMessageEvent(this.selfId, { group_id: 284840486, group_name: '' }, { ...i, nickname: i.nickname ?? `user${i.user}` }, this.ids(`forward:${id}`)),
    }))
    this.forwards.set(id, messages)
    return messages
  }

  // ---- waiting ----

  /** Resolves when `cond` holds (polling on real time). */
  until(cond: () => boolean, what = 'condition', timeoutMs = 5000): Promise<void> {
    return until(cond, `fake NapCat: ${what}`, timeoutMs)
  }

  /** The calls of `action` once there are `n` of them. */
  async waitForCalls(action: string, n = 1, timeoutMs = 5000): Promise<ActionCall[]> {
    const of = () => this.calls.filter(c => c.action === action)
    await this.until(() => of().length >= n, `${n} ${action} call(s)`, timeoutMs)
    return of()
  }

  async waitForSent(n = 1, timeoutMs = 5000): Promise<SentMessage[]> {
    await this.until(() => this.sent.length >= n, `${n} sent message(s)`, timeoutMs)
    return this.sent
  }

  async waitForConnection(timeoutMs = 5000): Promise<Connection> {
    await this.until(() => this.connections.some(c => c.socket.readyState === WebSocket.OPEN), 'a connection', timeoutMs)
    return this.connections.find(c => c.socket.readyState === WebSocket.OPEN)
  }

  /** Closes every client connection (the server keeps listening). */
  disconnect(): void {
    for (const c of this.connections) c.socket.terminate()
  }

  async close(): Promise<void> {
    if (this.heartbeat) realClearInterval(this.heartbeat)
    this.heartbeat = undefined
    for (const c of this.connections) c.socket.terminate()
    await new Promise<void>(resolve => this.wss.close(() => resolve()))
    this.server.closeAllConnections?.()
    await new Promise<void>(resolve => this.server.close(() => resolve()))
  }

  // ---- the wire ----

  private accept(socket: WebSocket, req: IncomingMessage) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const token = this.options.token
    if (token) {
      const query = url.searchParams.get('access_token')
      const header = req.headers.authorization?.split('Bearer ').pop() ?? ''
      if ((query || header) !== token) {
        socket.send(JSON.stringify(this.response('failed', 1403, null, 'token验证失败', null)))
        socket.close()
        return
      }
    }
    const events = url.pathname !== '/api' && url.pathname !== '/api/'
    const connection: Connection = { url: req.url ?? '/', headers: req.headers, events, socket }
    this.connections.push(connection)
    socket.on('message', data => { this.onMessage(socket, data.toString()).catch(() => {}) })
    socket.on('error', () => {})
    socket.once('close', () => {
      if (!this.connections.some(c => c.events && c.socket.readyState === WebSocket.OPEN) && this.heartbeat) {
        realClearInterval(this.heartbeat)
        this.heartbeat = undefined
      }
    })
    if (!events) return
    this.push(meta.lifecycle(this.selfId, 'connect')).catch(() => {})
    if (this.options.heartbeatMs > 0 && !this.heartbeat) {
      this.heartbeat = realSetInterval(() => { this.push(meta.heartbeat(this.selfId, this.options.heartbeatMs)).catch(() => {}) }, this.options.heartbeatMs)
      this.heartbeat.unref?.()
    }
  }

  private response(status: 'ok' | 'failed', retcode: number, data: unknown, message: string, echo: unknown, wording = message): Response {
    return { status, retcode, data, message, wording, echo, stream: 'normal-action' }
  }

  private async onMessage(socket: WebSocket, text: string) {
    let request: { action?: string; params?: any; echo?: unknown }
    try {
      request = JSON.parse(text)
    } catch {
      return this.reply(socket, this.response('failed', 1400, null, 'json解析失败,请检查数据格式', null))
    }
    const action = String(request.action ?? '')
    const call: ActionCall = { index: this.calls.length, action, params: request.params ?? {}, echo: request.echo }
    this.calls.push(call)
    const echo = request.echo ?? ''
    const step = this.nextStep(action)
    if (step?.delayMs) await new Promise(r => realSetTimeout(r, step.delayMs))
    if (step?.hang) return
    let response: Response
    if (step?.fail) response = this.response('failed', step.fail.retcode, null, step.fail.message, echo, step.fail.wording ?? step.fail.message)
    else if (step && 'data' in step) response = this.response('ok', 0, step.data, '', echo)
    else {
      const handler = this.handlers.get(action) ?? this.builtin[action]
      if (!handler) {
        this.unknown.push(action)
        response = this.response('failed', 1404, null, `不支持的API ${action}`, request.echo ?? null)
      } else {
        try {
          response = this.response('ok', 0, (await handler(call.params, call)) ?? null, '', echo)
        } catch (e) {
          const retcode = e instanceof ActionError ? e.retcode : 1200
          const wording = e instanceof ActionError ? e.wording : (e as Error).message
          response = this.response('failed', retcode, null, (e as Error).message, echo, wording)
        }
      }
    }
    call.response = response
    this.reply(socket, response)
  }

  private reply(socket: WebSocket, response: Response) {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(response))
  }

  private nextStep(action: string): Step | undefined {
    const queue = this.steps.get(action)
    const step = queue?.[0]
    if (!step) return undefined
    if (--step.times <= 0) queue.shift()
    return step
  }

  private ids(conversation: string): Ids {
    const seq = (this.seqs.get(conversation) ?? 0) + 1
    this.seqs.set(conversation, seq)
    return { message_id: this.nextId++, real_seq: String(seq) }
  }

  private store(m: OB11Message) {
    const key = conversationOf(m)
    const list = this.history.get(key) ?? []
    list.push(m)
    this.history.set(key, list)
    this.byId.set(m.message_id, m)
  }

  // NapCat's typebox checks fail with 1400 and lines like this one (OneBotAction.check)
  private require(params: any, ...keys: string[]) {
    const missing = keys.filter(k => params[k] === undefined || params[k] === null || params[k] === '')
    if (missing.length) throw new ActionError(1400, missing.map(k => `Key: ${k}, Message: Expected required property`).join('\n'))
  }

  private send(action: string, params: any, type?: 'group' | 'private'): { message_id: number } {
    this.require(params, 'message')
    // SendMsg.ts createContext: message_type decides, else group_id before user_id
    const kind = type ?? params.message_type ?? (params.group_id ? 'group' : params.user_id ? 'private' : undefined)
    if (kind === 'group' && !params.group_id) throw new Error(params.user_id ? '当前群聊发送,请指定 group_id 而不是 user_id' : '请指定正确的 group_id 或 user_id')
    if (kind === 'private' && !params.user_id) throw new Error(params.group_id ? '当前私聊发送,请指定 user_id 而不是 group_id' : '请指定正确的 group_id 或 user_id')
    if (!kind) throw new Error('请指定正确的 group_id 或 user_id')
    const autoEscape = params.auto_escape === true || params.auto_escape === 'true'
    const segments = typeof params.message === 'string' && autoEscape ? [seg.text(params.message)] : normalizeMessage(params.message)
    if (!segments.length) throw new Error('消息体无法解析, 请检查是否发送了不支持的消息类型')
    const target = Number(kind === 'group' ? params.group_id : params.user_id)
    const ids = this.ids(`${kind}:${target}`)
    const d = { user: this.selfId, segments, nickname: this.nickname }
    const m = kind === 'group'
      ? groupMessageEvent(this.selfId, this.groups.get(target) ?? this.group(target), { ...d, role: this.members.get(target)?.get(this.selfId)?.role }, ids)
      : { ...privateMessageEvent(this.selfId, d, ids), target_id: target }
    this.store(m)
    this.sent.push({ action, message_type: kind, target, segments, raw: params.message, message_id: m.message_id, message_seq: m.message_seq, at: Date.now() })
    return { message_id: m.message_id }
  }

  // go-cqhttp/GetGroupMsgHistory.ts, GetFriendMsgHistory.ts: without `message_seq`, the latest `count`
  // messages; with it, the `count` messages up to and including that one (getMsgsIncludeSelf), oldest
  // first; `reverse_order` counts forward from it instead. Nothing found fails with "消息<seq>不存在".
  private page(conversation: string, params: any): { messages: OB11Message[] } {
    const list = this.history.get(conversation) ?? []
    const count = Math.min(Math.max(1, Number(params.count ?? 20)), this.options.historyMax)
    const seq = params.message_seq === undefined || params.message_seq === null || String(params.message_seq) === '' || String(params.message_seq) === '0'
      ? undefined : Number(params.message_seq)
    const reverse = params.reverse_order === true || params.reverseOrder === true
    let out: OB11Message[]
    if (seq === undefined) out = list.slice(-count)
    else {
      const at = list.findIndex(m => m.message_seq === seq)
      out = at < 0 ? [] : reverse ? list.slice(at, at + count) : list.slice(Math.max(0, at - count + 1), at + 1)
    }
    if (!out.length) throw new Error(`消息${params.message_seq}不存在`)
    return { messages: out }
  }

  private readonly builtin: Record<string, Handler> = {
    get_login_info: () => ({ user_id: this.selfId, nickname: this.nickname }),
    get_version_info: () => ({ app_name: 'NapCat.Onebot', protocol_version: 'v11', app_version: '4.8.0' }),
    get_status: () => ({ online: true, good: true, stat: {} }),
    // NapCat answers ok with null: the account has no guild profile (guild/GetGuildProfile.ts)
    get_guild_service_profile: () => null,
    get_group_info: p => {
      this.require(p, 'group_id')
      const group = this.groups.get(Number(p.group_id))
      if (!group) throw new Error(`获取群信息失败`)
      return group
    },
    get_group_list: () => [...this.groups.values()],
    get_group_member_info: p => {
      this.require(p, 'group_id', 'user_id')
      const member = this.members.get(Number(p.group_id))?.get(Number(p.user_id))
      if (!member) throw new Error(`Member ${p.user_id} not found`)
      return {
        ...member, sex: 'unknown', age: 0, area: '', level: '1', qq_level: 0, unfriendly: false,
        title_expire_time: 0, card_changeable: true, shut_up_timestamp: 0,
      }
    },
    get_group_member_list: p => {
      this.require(p, 'group_id')
      return [...this.members.get(Number(p.group_id))?.values() ?? []]
    },
    get_stranger_info: p => {
      this.require(p, 'user_id')
      const user = this.users.get(Number(p.user_id))
      if (!user) throw new Error('用户不存在')
      return { ...user, qid: '', level: 0, login_days: 0, reg_time: 0, long_nick: '', is_vip: false }
    },
    get_friend_list: () => [...this.friends].map(id => this.users.get(id)),
    send_msg: p => this.send('send_msg', p),
    send_group_msg: p => { this.require(p, 'group_id'); return this.send('send_group_msg', p, 'group') },
    send_private_msg: p => { this.require(p, 'user_id'); return this.send('send_private_msg', p, 'private') },
    send_group_forward_msg: p => this.sendForward('send_group_forward_msg', p, 'group'),
    send_private_forward_msg: p => this.sendForward('send_private_forward_msg', p, 'private'),
    get_msg: p => {
      this.require(p, 'message_id')
      const m = this.byId.get(Number(p.message_id))
      if (!m || this.recalled.has(m.message_id)) throw new Error('消息不存在')
      return { ...m, emoji_likes_list: [] }
    },
    ...actHandlers({
      selfId: () => this.selfId, packet: () => this.options.packet, message: id => this.byId.get(id), recalled: this.recalled,
      role: (g, u) => this.members.get(g)?.get(u)?.role, emojiLikes: this.emojiLikes, pokes: this.pokes, deleted: this.deleted,
    }),
    get_group_msg_history: p => { this.require(p, 'group_id'); return this.page(`group:${Number(p.group_id)}`, p) },
    get_friend_msg_history: p => {
      this.require(p, 'user_id')
      if (!this.users.has(Number(p.user_id))) throw new Error(`记录${p.user_id}不存在`)
      return this.page(`private:${Number(p.user_id)}`, p)
    },
    get_forward_msg: p => {
      const id = String(p.message_id ?? p.id ?? '')
      if (!id) throw new Error('message_id is required')
      const messages = this.forwards.get(id)
      if (!messages) throw new Error('消息已过期或者为内层消息，无法获取转发消息')
      return { messages }
    },
  }

  private sendForward(action: string, params: any, kind: 'group' | 'private') {
    this.require(params, kind === 'group' ? 'group_id' : 'user_id', 'messages')
    const target = Number(kind === 'group' ? params.group_id : params.user_id)
    const nodes = normalizeMessage(params.messages)
    const ids = this.ids(`${kind}:${target}`)
    const resId = `fake-res-${ids.message_id}`
    const segments = [seg.forward(resId)]
    const d = { user: this.selfId, segments, nickname: this.nickname }
    const m = kind === 'group'
      ? groupMessageEvent(this.selfId, this.groups.get(target) ?? this.group(target), d, ids)
      : { ...privateMessageEvent(this.selfId, d, ids), target_id: target }
    this.store(m)
    this.forwards.set(resId, nodes.map(n => ({
      ...groupMessageEvent(this.selfId, { group_id: 284840486, group_name: '' }, {
        user: Number(n.data.user_id ?? n.data.uin ?? this.selfId), nickname: n.data.nickname ?? n.data.name ?? 'QQ用户',
        segments: normalizeMessage(n.data.content ?? []),
      }, this.ids(`forward:${resId}`)),
    })))
    this.sent.push({ action, message_type: kind, target, segments: nodes, raw: params.messages, message_id: m.message_id, message_seq: m.message_seq, at: Date.now() })
    return { message_id: m.message_id, res_id: resId, forward_id: resId }
  }
}
