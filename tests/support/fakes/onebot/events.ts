// OneBot v11 events as NapCat posts them: message events, notices and meta events.
// Follows NapCatQQ's source: packages/napcat-onebot/api/msg.ts (`initializeMessage`, `handleGroupMessage`,
// `handlePrivateMessage`: the fields of a message and its sender), packages/napcat-onebot/event/**
// (OneBotEvent: `time`, `self_id`; notice/OB11PokeEvent, OB11GroupBanEvent, OB11GroupRecallNoticeEvent,
// OB11FriendRecallNoticeEvent, OB11GroupIncreaseEvent, OB11GroupDecreaseEvent; meta/OB11LifeCycleEvent and
// OB11HeartbeatEvent), and the OneBot v11 spec's event/message.md, event/notice.md and event/meta.md.
import { Segment, toCQ } from './segments'

export type Role = 'owner' | 'admin' | 'member'

/** A message as NapCat reports it (an event, and the items of get_msg / the history actions). */
export interface OB11Message {
  self_id: number
  user_id: number
  time: number
  /** NapCat's short id: the same number is the message's `message_id`, `message_seq` and `real_id` */
  message_id: number
  message_seq: number
  real_id: number
  /** QQ's own sequence number in the conversation, as a string */
  real_seq: string
  message_type: 'group' | 'private'
  sender: { user_id: number; nickname: string; card: string; role?: Role }
  raw_message: string
  font: number
  sub_type: 'normal' | 'friend' | 'group'
  message: Segment[]
  message_format: 'array'
  post_type: 'message' | 'message_sent'
  group_id?: number
  group_name?: string
  target_id?: number
}

/** What a test says about a message; the fake fills in the ids. */
export interface MessageDescription {
  /** the sender */
  user: number
  segments: Segment[]
  nickname?: string
  /** the group card (groups only; '' when none) */
  card?: string
  role?: Role
  /** seconds since the epoch; default now */
  time?: number
}

export interface Ids { message_id: number; real_seq: string }

const now = () => Math.floor(Date.now() / 1000)

/** A group message event (`message_type: 'group'`, `sub_type: 'normal'`), the sender's role and card included. */
export function groupMessageEvent(selfId: number, group: { group_id: number; group_name: string }, d: MessageDescription, ids: Ids): OB11Message {
  return {
    ...base(selfId, d, ids, 'group'),
    sub_type: 'normal',
    group_id: group.group_id,
    group_name: group.group_name,
    sender: { user_id: d.user, nickname: d.nickname ?? `user${d.user}`, card: d.card ?? '', role: d.role ?? 'member' },
  }
}

/** A private message event from a friend (`sub_type: 'friend'`); NapCat's private sender has an empty card and no role. */
export function privateMessageEvent(selfId: number, d: MessageDescription, ids: Ids): OB11Message {
  return { ...base(selfId, d, ids, 'private'), sub_type: 'friend', sender: { user_id: d.user, nickname: d.nickname ?? `user${d.user}`, card: '' } }
}

function base(selfId: number, d: MessageDescription, ids: Ids, type: 'group' | 'private') {
  return {
    self_id: selfId,
    user_id: d.user,
    time: d.time ?? now(),
    message_id: ids.message_id,
    message_seq: ids.message_id,
    real_id: ids.message_id,
    real_seq: ids.real_seq,
    message_type: type,
    raw_message: toCQ(d.segments).trim(),
    font: 14,
    message: d.segments,
    message_format: 'array' as const,
    post_type: (d.user === selfId ? 'message_sent' : 'message') as 'message' | 'message_sent',
  }
}

const notice = (selfId: number) => ({ time: now(), self_id: selfId, post_type: 'notice' as const })

// QQ's gray-tip items, which NapCat passes on as `raw_info` (api/group.ts parsePaiYiPai)
const pokeInfo = (from: number, to: number) => [
  { col: '1', nm: '', type: 'qq', uid: `u_${from}` }, { jp: '', src: '', type: 'img' },
  { txt: '戳了戳', type: 'nor' }, { col: '1', nm: '', tp: '0', type: 'qq', uid: `u_${to}` },
]

export const notices = {
  /** A poke in a group: `user_id` pokes `target_id`. */
  groupPoke: (selfId: number, group: number, user: number, target: number) =>
    ({ ...notice(selfId), notice_type: 'notify', sub_type: 'poke', target_id: target, user_id: user, group_id: group, raw_info: pokeInfo(user, target) }),
  /** A poke in a private chat with `friend`: `sender_id` pokes `target_id`. */
  friendPoke: (selfId: number, friend: number, sender: number, target: number) =>
    ({ ...notice(selfId), notice_type: 'notify', sub_type: 'poke', target_id: target, user_id: friend, sender_id: sender, raw_info: pokeInfo(sender, target) }),
  /** A mute (`ban`, `duration` seconds) or its end (`lift_ban`, duration 0); `user_id` 0 for the whole group. */
  groupBan: (selfId: number, group: number, user: number, operator: number, duration: number, subType: 'ban' | 'lift_ban') =>
    ({ ...notice(selfId), notice_type: 'group_ban', group_id: group, user_id: user, operator_id: operator, duration, sub_type: subType }),
  groupRecall: (selfId: number, group: number, user: number, operator: number, messageId: number) =>
    ({ ...notice(selfId), notice_type: 'group_recall', group_id: group, user_id: user, operator_id: operator, message_id: messageId }),
  friendRecall: (selfId: number, user: number, messageId: number) =>
    ({ ...notice(selfId), notice_type: 'friend_recall', user_id: user, message_id: messageId }),
  groupIncrease: (selfId: number, group: number, user: number, operator: number, subType: 'approve' | 'invite' = 'approve') =>
    ({ ...notice(selfId), notice_type: 'group_increase', group_id: group, user_id: user, operator_id: operator, sub_type: subType }),
  /**
   * A reaction to message `message` (NapCat: event/notice/OB11MsgEmojiLikeEvent.ts, built in api/group.ts
   * createGroupEmojiLikeEvent): one like of `count` (NapCat sends 1), `emoji_id` a string; `user_id` 0 when unknown.
   */
  groupMsgEmojiLike: (selfId: number, group: number, user: number, message: number, emojiId: string, add = true, count = 1) =>
    ({ ...notice(selfId), group_id: group, user_id: user, notice_type: 'group_msg_emoji_like', message_id: message, likes: [{ emoji_id: emojiId, count }], is_add: add }),
  groupDecrease: (selfId: number, group: number, user: number, operator: number, subType: 'leave' | 'kick' | 'kick_me' | 'disband' = 'leave') =>
    ({ ...notice(selfId), notice_type: 'group_decrease', group_id: group, user_id: user, operator_id: operator, sub_type: subType }),
}

export const meta = {
  lifecycle: (selfId: number, subType: 'connect' | 'enable' | 'disable' = 'connect') =>
    ({ time: now(), self_id: selfId, post_type: 'meta_event', meta_event_type: 'lifecycle', sub_type: subType }),
  heartbeat: (selfId: number, interval: number) =>
    ({ time: now(), self_id: selfId, post_type: 'meta_event', meta_event_type: 'heartbeat', status: { online: true, good: true }, interval }),
}
