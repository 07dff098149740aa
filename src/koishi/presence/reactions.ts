// Reactions people add (SPEC §23) as the runtime takes them: NapCat's `group_msg_emoji_like`,
// read from the socket since the adapter makes no session of it (adapters/onebot/raw-events.ts),
// and Satori's `reaction-added` / `reaction-removed` sessions (Discord, Telegram, KOOK, QQ's
// guilds). Each goes, in its conversation's arrival order, to the presence part's gather, which
// stores one fact a message per window that never wakes (presence/reactions.ts).
import type { Bot, Context, Session } from 'koishi'
import { reactionById } from '../../acts/reactions'
import { presencePart } from '../../presence/part'
import type { ReactionSeen } from '../../presence/reactions'
import type { Runtime } from '../../runtime/runtime'
import { botId } from '../../claims/bot-id'
import { channelKey } from '../../claims/channel-key'
import { arrivalOf } from '../inbound/session-to-fact'
import { watchRawEvents } from '../adapters/onebot/raw-events'
import { EMOJI_LIKE, readEmojiLike } from '../adapters/onebot/emoji-like'
import type { NoticeDeps } from './notices'

export function listenToReactions(ctx: Context, d: NoticeDeps): void {
  const seen = (bot: string, channel: string, r: Omit<ReactionSeen, 'user'> & { user: string }, fallbackName?: string) => {
    const task = async (rt: Runtime) => {
      const name = r.user ? rt.channels.nameOf(bot, r.user) ?? fallbackName ?? r.user : 'someone'
      rt.part(presencePart)?.reactions.add({ ...r, user: { id: r.user, name } })
    }
    if (!d.run(bot, channel, task)) d.log.debug('a reaction of %s in unclaimed channel %s was ignored', bot, channel)
  }

  watchRawEvents(ctx, EMOJI_LIKE, (bot: Bot, payload) => {
    const like = readEmojiLike(payload)
    if (!like) return
    if ('invalid' in like) return d.log.warn('a reaction notice of %s was ignored: %s', bot.sid, like.invalid)
    if (like.user && like.user === bot.selfId) return
    const sid = botId('onebot', bot.selfId)
    const channel = channelKey(like.group, false)
    const where = { bot: sid, channel, direct: false, guildId: like.group }
    for (const l of like.likes) {
      // an id the table lacks is still told, by its number
      const emoji = reactionById(l.emojiId)?.shown ?? `face-${l.emojiId}`
      seen(sid, channel, { where, to: like.message, user: like.user, emoji, count: l.count, at: d.now(), ...like.add ? {} : { removed: true } })
    }
  })

  const satori = (removed: boolean) => (session: Session) => {
    const a = arrivalOf(session)
    const to = session.messageId
    if (!a.channelId || !to || a.userId === a.selfId) return
    const emoji = satoriEmoji(session)
    if (!emoji) return d.log.debug('a reaction of %s in %s without an emoji was ignored', a.bot, a.channel)
    const where = { bot: a.bot, channel: a.channel, direct: a.isDirect, ...a.event.guild?.id ? { guildId: a.event.guild.id } : {} }
    const name = a.event.member?.nick || a.event.user?.nick || a.event.user?.name
    seen(a.bot, a.channel, { where, to: String(to), user: a.userId ?? '', emoji, count: 1, at: d.now(), ...removed ? { removed: true } : {} }, name)
  }
  // not all of these are in Koishi's typed event list; QQ's adapter says `reaction-removed`, Satori's protocol `reaction-deleted`
  const on = (event: string, fn: (session: Session) => void) => ctx.on(event as any, fn)
  on('reaction-added', satori(false))
  on('reaction-removed', satori(true))
  on('reaction-deleted', satori(true))
}

/**
 * The emoji of a Satori reaction: the event's `emoji.name`, else the session's content — a Unicode
 * emoji, Discord's `name:id` of a custom one (its name), QQ's `type:id` (its face by id).
 */
function satoriEmoji(session: Session): string | undefined {
  const named = (session.event as any).emoji?.name
  const raw = typeof named === 'string' && named ? named : String(session.content ?? '')
  const qq = /^[12]:(\d{1,10})$/.exec(raw)
  if (qq && session.platform === 'qq') return reactionById(qq[1])?.shown ?? `face-${qq[1]}`
  const text = raw.replace(/:\d+$/, '').slice(0, 64).trim()
  return text || undefined
}
