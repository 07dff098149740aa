// A fake of QQ's official bot API (the v2 OpenAPI for groups and single chats, and its WebSocket
// gateway) on 127.0.0.1, enforcing QQ's rules for what a bot may send. Follows the QQ bot
// documents (bot.q.qq.com/wiki, sources in tencent-connect/bot-docs):
// - "接口调用与鉴权" (develop/api-v2/dev-prepare/interface-framework/api-use.md): the token
//   exchange `POST https://bots.qq.com/app/getAppAccessToken` {appId, clientSecret} →
//   {access_token, expires_in: "7200"} (the same token until its last 60 s), and
//   `Authorization: QQBot <token>` on every OpenAPI call;
// - "事件订阅与通知" (develop/api-v2/dev-prepare/interface-framework/event-emit.md): `/gateway`,
//   `/gateway/bot`, Hello 10 → Identify 2 → READY, Heartbeat 1 / ACK 11, Resume 6 → RESUMED,
//   intents;
// - "发送消息" (develop/api-v2/server-inter/message/send-receive/send.md): `POST
//   /v2/groups/{group_openid}/messages` and `/v2/users/{openid}/messages`; a message with the
//   `msg_id` of a message the bot received is a passive reply, valid 5 minutes in groups and 60
//   minutes in single chats, at most 5 replies per message, `msg_seq` (default 1) never repeated
//   for one `msg_id`; any other message is proactive, 4 a month per chat in the document and none
//   since April 2025 (tencent-connect/bot-docs #216 and the platform's notice), so the quota
//   defaults to 0;
// - "openapi 错误" (develop/api-v2/openapi/error/error.md) for the refusals (see errors.ts);
// - "富媒体消息" (send-receive/rich-media.md): the uploads and msg_type 7 media, in files.ts.
import { WebSocket, WebSocketServer } from 'ws'
import { AddressInfo } from 'node:net'
import { Endpoint, RecordedRequest, ScriptedServer } from '../scripted-server'
import { QQ_ERRORS, QQErrorEntry, QQReply, qqOpenAPI, refuse } from './errors'
import { RichMedia, Upload } from './files'
import { until } from '../../app-waits'
import {
  C2CInput, C2CMessage, c2cMessage, eventId, GroupAtInput, GroupAtMessage, groupAtMessage, INTENT_OF, Intents, messageId, Opcode, qqTimestamp,
} from './events'

// Captured at load: tests install @sinonjs/fake-timers; the fake's waiting and its clock keep real time.
const realNow = Date.now.bind(Date)

export type Scene = 'group' | 'c2c'

/** The reply windows of send.md: 5 minutes in groups, 60 in single chats. */
export const REPLY_WINDOW_MS: Record<Scene, number> = { group: 5 * 60_000, c2c: 60 * 60_000 }
/** QQ lets a bot take back its own message for 2 minutes (撤回消息) */
export const RECALL_WINDOW_MS = 2 * 60_000
/** send.md: "每个消息最多回复 5 次" */
export const MAX_REPLIES = 5

/** Events whose `event_id` may start a passive message (send.md, the `event_id` rows). */
const ANSWERABLE_EVENTS: Record<Scene, string[]> = {
  group: ['INTERACTION_CREATE', 'GROUP_ADD_ROBOT', 'GROUP_MSG_RECEIVE'],
  c2c: ['INTERACTION_CREATE', 'C2C_MSG_RECEIVE', 'FRIEND_ADD'],
}

export interface FakeQQOptions {
  appId?: string
  secret?: string
  /** the bot's user (READY and /users/@me) */
  bot?: { id: string; username: string }
  /** proactive messages allowed per chat (default 0, as since April 2025) */
  proactiveQuota?: number
  /** the access token's lifetime in seconds (default 7200) */
  expiresIn?: number
  /** the heartbeat interval the gateway asks for (ms; default 41250) */
  heartbeatInterval?: number
  /** the fake's clock (default real time plus `advance`d offset) */
  now?: () => number
}

/** A message the bot delivered to QQ through the OpenAPI, with what QQ answered. */
export interface Outbound {
  scene: Scene
  /** the group_openid or the user openid of the path */
  chat: string
  body: any
  /** passive (carried a valid msg_id or event_id) or proactive */
  kind: 'passive' | 'proactive'
  at: number
  /** the new message's id when accepted */
  id?: string
  /** QQ's refusal */
  error?: QQErrorEntry
  /** a msg_type 7 message's upload */
  media?: Upload
  request: RecordedRequest
}

interface Received {
  scene: Scene
  chat: string
  at: number
  /** the dispatch type (GROUP_AT_MESSAGE_CREATE, ...) */
  t: string
  seqs: Set<number>
  replies: number
}

interface Frame { op: number; d?: any; s?: number | null; t?: string; id?: string }

export class FakeQQ {
  readonly appId: string
  readonly secret: string
  readonly botUser: { id: string; username: string }
  /** `http://127.0.0.1:<port>`: the OpenAPI and the token endpoint (`/app/getAppAccessToken`) */
  readonly origin: string
  /** `ws://127.0.0.1:<port>/websocket` */
  readonly gatewayUrl: string
  readonly token: Endpoint<QQReply>
  readonly gateway: Endpoint<QQReply>
  readonly me: Endpoint<QQReply>
  readonly groupMessages: Endpoint<QQReply>
  readonly userMessages: Endpoint<QQReply>
  /** DELETE of a message (撤回), group and single chat */
  readonly deletes: Endpoint<QQReply>[]
  /** the messages taken back, in order */
  readonly deleted: { scene: Scene; chat: string; id: string }[] = []
  /** the rich-media uploads (files.ts): `files.uploads`, `files.groupFiles`, `files.userFiles` */
  readonly files: RichMedia
  /** every message sent to a chat, accepted or refused, in order */
  readonly outbound: Outbound[] = []
  /** every frame the bot sent on the gateway */
  readonly frames: Frame[] = []
  /** proactive messages allowed per chat; `quota.set('group:<openid>', n)` for one chat */
  readonly quota = new Map<string, number>()
  proactiveQuota: number
  /** the intents of the last Identify */
  intents = 0
  private offset = 0
  private tokens: { token: string; expiresAt: number }[] = []
  private tokenCount = 0
  private received = new Map<string, Received>()
  private proactiveUsed = new Map<string, number>()
  private groups = new Set<string>()
  private socket: WebSocket | undefined
  private sessionId = ''
  private seq = 0
  private dispatched: Frame[] = []
  private sockets = new Set<WebSocket>()

  private constructor(readonly server: ScriptedServer, private wss: WebSocketServer, private o: FakeQQOptions) {
    this.appId = o.appId ?? '102000001'
    this.secret = o.secret ?? 'fake-secret'
    this.botUser = o.bot ?? { id: '11528361447658417040', username: 'kotodama-test' }
    this.proactiveQuota = o.proactiveQuota ?? 0
    this.origin = server.origin
    this.gatewayUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/websocket`
    const wire = qqOpenAPI()
    this.token = server.mount('POST', '/app/getAppAccessToken', wire, 'token').fallback((req) => this.answerToken(req))
    this.gateway = server.mount('GET', /\/gateway(\/bot)?/, wire, 'gateway').guard(this.auth).fallback((req) => ({
      json: req.path === '/gateway' ? { url: this.gatewayUrl } : {
        url: this.gatewayUrl, shards: 1, session_start_limit: { total: 1000, remaining: 999, reset_after: 86400000, max_concurrency: 1 },
      },
    }))
    this.me = server.mount('GET', '/users/@me', wire, 'me').guard(this.auth).fallback(() => ({
      json: { id: this.botUser.id, username: this.botUser.username, avatar: '', bot: true, union_openid: '', union_user_account: '' },
    }))
    this.groupMessages = server.mount('POST', /\/v2\/groups\/[^/]+\/messages/, wire, 'group-messages')
      .guard(this.auth).fallback((req) => this.answerMessage('group', req))
    this.userMessages = server.mount('POST', /\/v2\/users\/[^/]+\/messages/, wire, 'user-messages')
      .guard(this.auth).fallback((req) => this.answerMessage('c2c', req))
    this.deletes = [
      server.mount('DELETE', /\/v2\/groups\/[^/]+\/messages\/[^/]+/, wire, 'group-deletes').guard(this.auth).fallback((req) => this.answerDelete('group', req)),
      server.mount('DELETE', /\/v2\/users\/[^/]+\/messages\/[^/]+/, wire, 'user-deletes').guard(this.auth).fallback((req) => this.answerDelete('c2c', req)),
    ]
    this.files = new RichMedia(server, wire, {
      now: () => this.now(), auth: this.auth, messageId, proactive: (scene, chat) => this.spendProactive(scene, chat),
      chatError: (scene, chat) => scene === 'group' && !this.groups.has(chat) ? QQ_ERRORS.BOT_NOT_IN_GROUP : undefined,
    })
    wss.on('connection', (socket) => this.connect(socket))
  }

  static async start(o: FakeQQOptions = {}): Promise<FakeQQ> {
    const server = await ScriptedServer.start({ name: 'fake-qq' })
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/websocket' })
    await new Promise((resolve, reject) => wss.once('listening', resolve).once('error', reject))
    return new FakeQQ(server, wss, o)
  }

  // ---- the clock

  now(): number {
    return (this.o.now ?? realNow)() + this.offset
  }

  /** Moves the fake's clock (reply windows, token lifetimes) forward. */
  advance(ms: number): void {
    this.offset += ms
  }

  // ---- tokens (api-use.md)

  /** The token the last exchange handed out. */
  get accessToken(): string | undefined {
    return this.tokens.at(-1)?.token
  }

  private answerToken(req: RecordedRequest): QQReply {
    if (req.body?.appId !== this.appId || req.body?.clientSecret !== this.secret) return refuse(QQ_ERRORS.SECRET_INVALID)
    const now = this.now()
    const life = (this.o.expiresIn ?? 7200) * 1000
    let last = this.tokens.at(-1)
    // the same token until its last 60 seconds; then a new one, the old one still valid until it expires
    if (!last || last.expiresAt - now <= 60_000) {
      last = { token: `fake-access-${++this.tokenCount}-${Math.random().toString(36).slice(2, 10)}`, expiresAt: now + life }
      this.tokens.push(last)
    }
    return { json: { access_token: last.token, expires_in: String(Math.round((last.expiresAt - now) / 1000)) } }
  }

  private validToken(header: string | undefined): boolean {
    const m = /^QQBot (.+)$/.exec(header ?? '')
    const now = this.now()
    return !!m && this.tokens.some(t => t.token === m[1] && t.expiresAt > now)
  }

  /** 401 in QQ's shape without a valid `Authorization: QQBot <token>`. */
  private auth = (req: RecordedRequest): QQReply | undefined => {
    const header = req.headers.authorization as string | undefined
    if (!header || header === 'QQBot' || header === 'QQBot ') return refuse(QQ_ERRORS.TOKEN_MISSING)
    if (!this.validToken(header)) return refuse(QQ_ERRORS.TOKEN_INVALID)
    return undefined
  }

  // ---- sending (send.md)

  /** Declares a group the bot is in (a group it received a message from is known already). */
  addGroup(openid: string): this {
    this.groups.add(openid)
    return this
  }

  private answerMessage(scene: Scene, req: RecordedRequest): QQReply {
    const chat = decodeURIComponent(req.path.split('/')[3])
    const body = req.body ?? {}
    let media: Upload | undefined
    const record = (kind: Outbound['kind'], error?: QQErrorEntry): QQReply => {
      const entry: Outbound = { scene, chat, body, kind, at: this.now(), request: req, ...media && { media }, ...error ? { error } : { id: messageId() } }
      this.outbound.push(entry)
      return error ? refuse(error) : { json: { id: entry.id, timestamp: qqTimestamp(entry.at) } }
    }
    const kind = body.msg_id || body.event_id ? 'passive' : 'proactive'
    if (typeof body.msg_type !== 'number') return record(kind, QQ_ERRORS.REQUEST_INVALID)
    if (body.msg_type === 0 && !String(body.content ?? '').trim()) return record(kind, QQ_ERRORS.EMPTY_MESSAGE)
    if (scene === 'group' && !this.groups.has(chat)) return record(kind, QQ_ERRORS.BOT_NOT_IN_GROUP)
    // a media message carries the file_info of an upload (files.ts)
    const found = body.msg_type === 7 ? this.files.media(scene, body) : undefined
    if (found && !('request' in found)) return record(kind, found)
    media = found as Upload | undefined
    if (body.msg_id) return record(kind, this.checkReply(scene, chat, String(body.msg_id), body.msg_seq))
    if (body.event_id) return record(kind, this.checkEvent(scene, chat, String(body.event_id)))
    return record(kind, this.spendProactive(scene, chat))
  }

  /**
   * Takes back one of the bot's own messages of the chat within 2 minutes (QQ's 撤回消息 API; simbot's
   * UserMessageDeleteApi quotes it: "发送超过两分钟的消息不可撤回"). QQ does not document the code of a
   * refusal; the fake answers its invalid-id error for an unknown, foreign, taken-back or late message.
   */
  private answerDelete(scene: Scene, req: RecordedRequest): QQReply {
    const [, , , chat, , id] = req.path.split('/').map(decodeURIComponent)
    const sent = this.outbound.find(o => o.scene === scene && o.chat === chat && o.id === id)
    const gone = this.deleted.some(d => d.scene === scene && d.chat === chat && d.id === id)
    if (!sent || gone || this.now() - sent.at > RECALL_WINDOW_MS) return refuse(QQ_ERRORS.MSG_ID_INVALID)
    this.deleted.push({ scene, chat, id })
    return { json: {} }
  }

  /** One proactive message of the chat, or 22009 once its quota is spent. */
  private spendProactive(scene: Scene, chat: string): QQErrorEntry | undefined {
    const key = `${scene}:${chat}`
    const used = this.proactiveUsed.get(key) ?? 0
    if (used >= (this.quota.get(key) ?? this.proactiveQuota)) return QQ_ERRORS.MSG_LIMIT_EXCEED
    this.proactiveUsed.set(key, used + 1)
    return undefined
  }

  /** A passive reply: a message received in this chat, inside its window, a new msg_seq, at most 5 replies. */
  private checkReply(scene: Scene, chat: string, msgId: string, rawSeq: unknown): QQErrorEntry | undefined {
    const got = this.received.get(`${scene}:${chat}:${msgId}`)
    if (!got || !got.t.endsWith('MESSAGE_CREATE')) return QQ_ERRORS.MSG_ID_INVALID
    if (this.now() - got.at > REPLY_WINDOW_MS[scene]) return QQ_ERRORS.MSG_EXPIRE
    const seq = rawSeq === undefined || rawSeq === null ? 1 : Number(rawSeq)
    if (got.seqs.has(seq)) return QQ_ERRORS.MSG_DEDUP
    if (got.replies >= MAX_REPLIES) return QQ_ERRORS.MSG_LIMIT_EXCEED
    got.seqs.add(seq)
    got.replies++
    return undefined
  }

  private checkEvent(scene: Scene, chat: string, id: string): QQErrorEntry | undefined {
    const got = this.received.get(`${scene}:${chat}:${id}`)
    if (!got || !ANSWERABLE_EVENTS[scene].includes(got.t)) return QQ_ERRORS.EVENT_ID_INVALID
    if (this.now() - got.at > 5 * 60_000) return QQ_ERRORS.EVENT_ID_EXPIRED
    return undefined
  }

  /** The accepted messages, in order. */
  get delivered(): Outbound[] {
    return this.outbound.filter(m => !m.error)
  }

  /** Resolves when `n` messages were sent to chats (accepted or refused), polling on real time. */
  waitForOutbound(n: number, timeoutMs = 5000): Promise<Outbound[]> {
    return this.until(() => this.outbound.length >= n, `${n} outbound message(s), got ${this.outbound.length}`, timeoutMs).then(() => this.outbound.slice())
  }

  // ---- the gateway (event-emit.md)

  /** Whether a bot is connected and identified (READY sent). */
  get connected(): boolean {
    return !!this.socket && this.socket.readyState === WebSocket.OPEN && !!this.sessionId
  }

  private connect(socket: WebSocket) {
    this.sockets.add(socket)
    socket.on('close', () => {
      this.sockets.delete(socket)
      if (this.socket === socket) this.socket = undefined
    })
    socket.on('message', (raw) => {
      let frame: Frame
      try {
        frame = JSON.parse(String(raw))
      } catch {
        return socket.close(4001, 'invalid payload')
      }
      this.frames.push(frame)
      this.onFrame(socket, frame)
    })
    send(socket, { op: Opcode.HELLO, d: { heartbeat_interval: this.o.heartbeatInterval ?? 41250 } })
  }

  private onFrame(socket: WebSocket, frame: Frame) {
    if (frame.op === Opcode.HEARTBEAT) return send(socket, { op: Opcode.HEARTBEAT_ACK })
    if (frame.op === Opcode.IDENTIFY) {
      // the gateway's close codes ("websocket 错误", develop/api-v2/gateway/error/error.md): 4004 invalid token
      if (!this.validToken(frame.d?.token)) return socket.close(4004, 'invalid token')
      this.intents = Number(frame.d?.intents ?? 0)
      this.socket = socket
      this.sessionId = `fake-session-${Math.random().toString(16).slice(2, 10)}`
      this.dispatched = []
      return this.dispatch('READY', {
        version: 1, session_id: this.sessionId, shard: frame.d?.shard ?? [0, 1],
        user: { id: this.botUser.id, username: this.botUser.username, bot: true, status: 1 },
      })
    }
    if (frame.op === Opcode.RESUME) {
      if (!this.validToken(frame.d?.token)) return socket.close(4004, 'invalid token')
      if (!this.sessionId || frame.d?.session_id !== this.sessionId) return send(socket, { op: Opcode.INVALID_SESSION, d: false })
      this.socket = socket
      // the events after the bot's last seq are sent again, then RESUMED
      for (const f of this.dispatched.filter(f => (f.s ?? 0) > Number(frame.d?.seq ?? 0))) send(socket, f)
      return this.dispatch('RESUMED', '')
    }
  }

  /** Sends a dispatch (op 0) to the connected bot; its `id` and the frame are returned. */
  dispatch(t: string, d: unknown): Frame {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) throw new Error(`fake-qq: no bot is connected to receive ${t}`)
    const need = INTENT_OF[t]
    if (need && !(this.intents & need)) {
      throw new Error(`fake-qq: the bot did not subscribe to intent ${need} (its intents: ${this.intents}), so QQ would not send ${t}`)
    }
    const frame: Frame = { op: Opcode.DISPATCH, s: ++this.seq, t, ...(t === 'READY' || t === 'RESUMED' ? {} : { id: eventId(t) }), d }
    if (t !== 'READY' && t !== 'RESUMED') this.dispatched.push(frame)
    send(this.socket, frame)
    return frame
  }

  /** A member @-mentions the bot in a group: GROUP_AT_MESSAGE_CREATE. Returns the event's `d` (its `id` is the msg_id to reply to). */
  groupAt(o: GroupAtInput): GroupAtMessage {
    const d = groupAtMessage(o, this.now())
    this.groups.add(o.group)
    const frame = this.dispatch('GROUP_AT_MESSAGE_CREATE', d)
    this.remember('group', o.group, d.id, 'GROUP_AT_MESSAGE_CREATE')
    this.remember('group', o.group, frame.id!, 'GROUP_AT_MESSAGE_CREATE')
    return d
  }

  /** A user writes to the bot in a single chat: C2C_MESSAGE_CREATE. */
  c2c(o: C2CInput): C2CMessage {
    const d = c2cMessage(o, this.now())
    const frame = this.dispatch('C2C_MESSAGE_CREATE', d)
    this.remember('c2c', o.user, d.id, 'C2C_MESSAGE_CREATE')
    this.remember('c2c', o.user, frame.id!, 'C2C_MESSAGE_CREATE')
    return d
  }

  /** Any other event of a chat (e.g. GROUP_ADD_ROBOT, FRIEND_ADD): its event id may start a passive message. */
  chatEvent(scene: Scene, chat: string, t: string, d: unknown): Frame {
    if (scene === 'group') this.groups.add(chat)
    const frame = this.dispatch(t, d)
    this.remember(scene, chat, frame.id!, t)
    return frame
  }

  private remember(scene: Scene, chat: string, id: string, t: string) {
    this.received.set(`${scene}:${chat}:${id}`, { scene, chat, at: this.now(), t, seqs: new Set(), replies: 0 })
  }

  /** Closes the bot's gateway connection (e.g. to test a resume). */
  drop(code = 4009, reason = 'session timed out'): void {
    this.socket?.close(code, reason)
  }

  /** Resolves when a bot is connected and identified. */
  waitForConnection(timeoutMs = 5000): Promise<void> {
    return this.until(() => this.connected, 'a bot to identify on the gateway', timeoutMs)
  }

  private until(cond: () => boolean, what: string, timeoutMs: number): Promise<void> {
    return until(cond, `fake-qq: ${what}`, timeoutMs)
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.terminate()
    await new Promise<void>(resolve => this.wss.close(() => resolve()))
    await this.server.close()
  }
}

function send(socket: WebSocket, frame: Frame) {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame))
}

export { Intents, Opcode, QQ_ERRORS }
