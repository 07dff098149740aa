// The gateway payloads of QQ's official bot API that reach a bot: the dispatch frame and the
// message events of groups and single chats. Follows the QQ bot documents (bot.q.qq.com/wiki,
// sources in tencent-connect/bot-docs): "事件订阅与通知" (develop/api-v2/dev-prepare/
// interface-framework/event-emit.md: the payload `{ id, op, d, s, t }`, opcodes, intents
// GROUP_AND_C2C_EVENT 1<<25) and "事件" of message send-receive (develop/api-v2/server-inter/
// message/send-receive/event.md: GROUP_AT_MESSAGE_CREATE with `id`, `author.member_openid`,
// `content`, `timestamp` (RFC 3339), `group_openid`; C2C_MESSAGE_CREATE with `author.user_openid`).
// Besides the documented fields the live gateway also sends `group_id` and `author.id` (the same
// openids), which @satorijs/adapter-qq 4.11 reads (src/utils.ts decodeGroupMessage); both are here.

export const Opcode = {
  DISPATCH: 0,
  HEARTBEAT: 1,
  IDENTIFY: 2,
  RESUME: 6,
  RECONNECT: 7,
  INVALID_SESSION: 9,
  HELLO: 10,
  HEARTBEAT_ACK: 11,
} as const

export const Intents = {
  GUILDS: 1 << 0,
  GUILD_MEMBERS: 1 << 1,
  GUILD_MESSAGES: 1 << 9,
  DIRECT_MESSAGE: 1 << 12,
  GROUP_AND_C2C_EVENT: 1 << 25,
  INTERACTION: 1 << 26,
  PUBLIC_GUILD_MESSAGES: 1 << 30,
} as const

/** The intent an event needs (event-emit.md, "事件订阅Intents"). */
export const INTENT_OF: Record<string, number> = {
  GROUP_AT_MESSAGE_CREATE: Intents.GROUP_AND_C2C_EVENT,
  C2C_MESSAGE_CREATE: Intents.GROUP_AND_C2C_EVENT,
  GROUP_ADD_ROBOT: Intents.GROUP_AND_C2C_EVENT,
  GROUP_DEL_ROBOT: Intents.GROUP_AND_C2C_EVENT,
  GROUP_MSG_RECEIVE: Intents.GROUP_AND_C2C_EVENT,
  FRIEND_ADD: Intents.GROUP_AND_C2C_EVENT,
  C2C_MSG_RECEIVE: Intents.GROUP_AND_C2C_EVENT,
  INTERACTION_CREATE: Intents.INTERACTION,
}

export interface Attachment {
  content_type: string
  filename?: string
  height?: number
  width?: number
  size?: number
  url: string
}

export interface GroupAtMessage {
  id: string
  author: { id: string; member_openid: string; union_openid?: string }
  content: string
  timestamp: string
  group_id: string
  group_openid: string
  attachments?: Attachment[]
}

export interface C2CMessage {
  id: string
  author: { id: string; user_openid: string; union_openid?: string }
  content: string
  timestamp: string
  attachments?: Attachment[]
}

/** RFC 3339 in Beijing time, as QQ writes it: `2023-11-06T13:37:18+08:00`. */
export function qqTimestamp(ms: number): string {
  const shifted = new Date(Math.floor(ms / 1000) * 1000 + 8 * 3600_000)
  return shifted.toISOString().replace(/\.\d{3}Z$/, '+08:00')
}

let ids = 0
/** A message id in QQ's form (`ROBOT1.0_…`). */
export function messageId(): string {
  return `ROBOT1.0_fake.${(++ids).toString(36)}.${Math.random().toString(36).slice(2, 10)}`
}

/** An event id in QQ's form (`GROUP_AT_MESSAGE_CREATE:<uuid-ish>`). */
export function eventId(t: string): string {
  return `${t}:${Math.random().toString(16).slice(2, 10)}-${(++ids).toString(16).padStart(4, '0')}`
}

export interface GroupAtInput {
  group: string
  member: string
  /** QQ puts a space before the text (the @ of the bot is removed): ' 123' in event.md */
  content: string
  id?: string
  attachments?: Attachment[]
}

export function groupAtMessage(o: GroupAtInput, now: number): GroupAtMessage {
  return {
    id: o.id ?? messageId(),
    author: { id: o.member, member_openid: o.member, union_openid: o.member },
    content: o.content,
    timestamp: qqTimestamp(now),
    group_id: o.group,
    group_openid: o.group,
    ...(o.attachments ? { attachments: o.attachments } : {}),
  }
}

export interface C2CInput {
  user: string
  content: string
  id?: string
  attachments?: Attachment[]
}

export function c2cMessage(o: C2CInput, now: number): C2CMessage {
  return {
    id: o.id ?? messageId(),
    author: { id: o.user, user_openid: o.user, union_openid: o.user },
    content: o.content,
    timestamp: qqTimestamp(now),
    ...(o.attachments ? { attachments: o.attachments } : {}),
  }
}
