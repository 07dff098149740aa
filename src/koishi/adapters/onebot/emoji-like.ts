// NapCat's reaction notice (packages/napcat-onebot/event/notice/OB11MsgEmojiLikeEvent.ts, built in
// api/group.ts createGroupEmojiLikeEvent at af07479): `{ post_type: 'notice', notice_type:
// 'group_msg_emoji_like', group_id, user_id, message_id, likes: [{ emoji_id: string, count }],
// is_add }`. NapCat pushes it for reactions to the bot's own messages (NapCatQQ #1170); `user_id`
// may be 0 or absent. A payload that is not this shape is refused with why.

export interface EmojiLike {
  group: string
  /** '' when NapCat did not say who */
  user: string
  message: string
  likes: { emojiId: string; count: number }[]
  add: boolean
}

/** the likes read from one notice (NapCat sends one; a longer list is cut) */
const MAX_LIKES = 20
const ID = /^\d{1,20}$/

export const EMOJI_LIKE = 'group_msg_emoji_like'

export function readEmojiLike(p: Record<string, any>): EmojiLike | { invalid: string } | undefined {
  if (p.post_type !== 'notice' || p.notice_type !== EMOJI_LIKE) return undefined
  const group = String(p.group_id ?? '')
  const message = String(p.message_id ?? '')
  if (!ID.test(group) || group === '0') return { invalid: `group_id ${JSON.stringify(p.group_id)}` }
  if (!ID.test(message)) return { invalid: `message_id ${JSON.stringify(p.message_id)}` }
  if (!Array.isArray(p.likes)) return { invalid: 'no likes' }
  const likes = p.likes.slice(0, MAX_LIKES).flatMap((l: any) => {
    const emojiId = String(l?.emoji_id ?? '').slice(0, 20)
    if (!emojiId) return []
    const count = Number(l?.count)
    return [{ emojiId, count: Number.isFinite(count) && count >= 1 ? Math.min(Math.floor(count), 1000) : 1 }]
  })
  if (!likes.length) return { invalid: 'no emoji in likes' }
  const user = ID.test(String(p.user_id ?? '')) && String(p.user_id) !== '0' ? String(p.user_id) : ''
  return { group, user, message, likes, add: p.is_add !== false }
}
