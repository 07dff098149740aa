// The fake NapCat's acts (SPEC §23), answered as NapCatQQ af07479 does:
// - action/msg/SetMsgEmojiLike.ts: a message id NapCat does not know throws 'msg not found', an empty
//   emoji id 'emojiId not found' (both retcode 1200 through OneBotAction.websocketHandle); `set` defaults
//   to true; core/apis/msg.ts setEmojiLike takes an id longer than 3 characters as an emoji's code point.
// - action/packet/SendPoke.ts (send_poke, group_poke, friend_poke share it): `group_id` decides group or
//   private, no user id throws '请检查参数，缺少 user_id 或 group_id' (1200); without the packet backend
//   (PacketSendAvailableDepends.check) the check fails with 1400 'packetBackend发包能力不可用…'.
// - action/msg/DeleteMsg.ts: an unknown id throws 'Recall failed'; core/apis/msg.ts recallMsg waits 1 s
//   for QQ's update and throws helper/event.ts's 'Timeout: NTEvent …' when QQ refuses (a message older
//   than QQ's 2 minutes, or another's message when the bot is no admin).
import type { OB11Message } from './events'
import { ActionError, type Handler } from './napcat'

export interface EmojiLike { message_id: number; emoji_id: string; set: boolean }
export interface Poke { action: string; group_id?: number; user_id: number }

/** What the acts read of the fake and record on it. */
export interface ActsState {
  selfId(): number
  /** the packet backend is there (pokes need it) */
  packet(): boolean
  message(id: number): OB11Message | undefined
  recalled: Set<number>
  role(group: number, user: number): string | undefined
  emojiLikes: EmojiLike[]
  pokes: Poke[]
  /** ids recalled through delete_msg, in order */
  deleted: number[]
}

/** QQ lets a member take back a message for 2 minutes */
export const RECALL_WINDOW_S = 120

const PACKET_MISSING = 'packetBackend发包能力不可用，请参照文档 https://napneko.github.io/config/advanced 和启动日志检查packetBackend状态或进行配置！错误堆栈信息：'
const RECALL_TIMEOUT = 'Timeout: NTEvent serviceAndMethod:NodeIKernelMsgService/recallMsg ListenerName:NodeIKernelMsgListener/onMsgInfoListUpdate EventRet:\n{}\n'

export function actHandlers(s: ActsState): Record<string, Handler> {
  const poke = (action: string): Handler => p => {
    if (!s.packet()) throw new ActionError(1400, PACKET_MISSING)
    const target = String(p.target_id ?? '') || String(p.user_id ?? '')
    const peer = String(p.group_id ?? '') || String(p.user_id ?? '')
    if (!target || !peer) throw new Error('请检查参数，缺少 user_id 或 group_id')
    s.pokes.push({ action, ...(p.group_id ? { group_id: Number(p.group_id) } : {}), user_id: Number(target) })
    return null
  }
  return {
    set_msg_emoji_like: p => {
      const m = s.message(Number(p.message_id))
      if (!m) throw new Error('msg not found')
      if (!p.emoji_id) throw new Error('emojiId not found')
      s.emojiLikes.push({ message_id: m.message_id, emoji_id: String(p.emoji_id), set: p.set === undefined ? true : p.set === true || p.set === 'true' })
      return { result: 0, errMsg: '' }
    },
    send_poke: poke('send_poke'),
    group_poke: poke('group_poke'),
    friend_poke: poke('friend_poke'),
    delete_msg: p => {
      const m = s.message(Number(p.message_id))
      if (!m || s.recalled.has(m.message_id)) throw new Error('Recall failed')
      const own = m.user_id === s.selfId()
      const admin = m.message_type === 'group' && ['admin', 'owner'].includes(s.role(m.group_id!, s.selfId()) ?? '')
      const late = Date.now() / 1000 - m.time > RECALL_WINDOW_S
      if ((own && late) || (!own && !admin)) throw new Error(RECALL_TIMEOUT)
      s.recalled.add(m.message_id)
      s.deleted.push(m.message_id)
      return null
    },
  }
}
