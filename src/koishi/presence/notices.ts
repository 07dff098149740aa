// Platform notices as the runtime takes them (SPEC §19): a poke and members joining or leaving
// become facts of their conversation (a poke of the bot wakes it like a mention), a recall marks
// the message recalled, a ban of the bot mutes the channel. Each is handled in its conversation's
// arrival order. Events as koishi-plugin-adapter-onebot 6.9.4 dispatches them (lib/index.js
// adaptSession): `notice`/poke, `message-deleted`, `guild-member`/ban, `guild-member-added|deleted`.
import type { Context, Session } from 'koishi'
import type { Fact } from '../../history/entries'
import type { Runtime } from '../../runtime/runtime'
import { presencePart } from '../../presence/part'
import type { Logger } from '../../util/logger'
import { displayName, shownId } from '../../util/transcript-text'
import { arrivalOf, type Arrival } from '../inbound/session-to-fact'
import { exemptFromWholeMute, readBan } from '../adapters/onebot/ban'

export interface NoticeDeps {
  /** runs `task` in the conversation's arrival order; false when no profile claims the channel */
  run(bot: string, channel: string, task: (runtime: Runtime) => Promise<unknown>): boolean
  log: Logger
  now(): number
}

export function listenToNotices(ctx: Context, d: NoticeDeps): void {
  let seq = 0
  const noticeId = (at: number) => `notice-${at}-${++seq}`
  const raw = (s: Session): Record<string, any> => (s.event as any)._data ?? {}
  const claimed = (a: Arrival, what: string, task: (r: Runtime) => Promise<unknown>) => {
    if (!a.channelId) return d.log.debug('a %s notice of %s without a channel was ignored', what, a.bot)
    if (!d.run(a.bot, a.channel, task)) d.log.debug('a %s notice of %s in unclaimed channel %s was ignored', what, a.bot, a.channel)
  }
  const fact = (a: Arrival, user: string, rt: Runtime, content: string, extra: Partial<Fact>): Fact => {
    const at = a.event.timestamp || d.now()
    return {
      id: noticeId(at), at, bot: a.bot, channel: a.channel, direct: a.isDirect,
      ...(a.event.guild?.id ? { guildId: a.event.guild.id } : {}),
      user: { id: user, name: rt.channels.nameOf(a.bot, user) ?? user }, content, ...extra,
    }
  }

  // some of these events are not in Koishi's typed event list
  const on = (event: string, fn: (session: Session) => void) => ctx.on(event as any, fn)
  on('notice', session => {
    if (session.subtype !== 'poke') return
    const a = arrivalOf(session)
    const data = raw(session)
    // a private chat's poke names the poker `sender_id` (NapCat OB11FriendPokeEvent)
    const poker = String(data.sender_id ?? a.userId ?? '')
    const target = String(data.target_id ?? (session as any).targetId ?? '')
    if (!poker || poker === a.selfId) return
    const toBot = target === a.selfId
    claimed(a, 'poke', async rt => {
      const whom = toBot ? 'you' : `${displayName(rt.channels.nameOf(a.bot, target), target)} (${shownId(target)})`
      await rt.receive(fact(a, poker, rt, `poked ${whom}`, { notice: 'poke', ...(toBot ? { pokesBot: true } : {}) }))
    })
  })

  on('message-deleted', session => {
    const a = arrivalOf(session)
    const id = session.messageId
    if (!id) return d.log.debug('a recall notice of %s without a message id was ignored', a.bot)
    claimed(a, 'recall', rt => rt.part(presencePart)?.presence.recall(a.channel, String(id)) ?? Promise.resolve())
  })

  on('guild-member', session => {
    if (session.subtype !== 'ban') return
    const a = arrivalOf(session)
    const ban = readBan(raw(session), a.selfId)
    if (ban.kind === 'other') return
    if (ban.kind === 'invalid') return d.log.warn('a ban notice of %s in %s was ignored: %s', a.bot, a.channel, ban.why)
    if (ban.kind === 'mute' && ban.clamped) d.log.warn('a ban notice of %s in %s is longer than QQ allows; kept as 30 days', a.bot, a.channel)
    const now = d.now()
    claimed(a, 'ban', async rt => {
      if (ban.kind === 'mute' && ban.whole && a.event.guild?.id && await exemptFromWholeMute(session.bot, a.event.guild.id, a.selfId)) {
        return d.log.debug('a whole-group mute in %s does not silence %s: it is an admin there', a.channel, a.bot)
      }
      await rt.part(presencePart)?.presence.mute(a.channel, ban.kind === 'mute' ? now + ban.seconds * 1000 : 0, 'platform', now)
    })
  })

  const member = (joined: boolean) => (session: Session) => {
    const a = arrivalOf(session)
    if (!a.userId || a.userId === a.selfId) return
    const kicked = !joined && session.subtype === 'passive'
    const what = joined ? 'joined the group' : kicked ? 'was removed from the group' : 'left the group'
    claimed(a, 'member', rt => rt.receive(fact(a, a.userId!, rt, what, { notice: joined ? 'join' : 'leave' })))
  }
  on('guild-member-added', member(true))
  on('guild-member-deleted', member(false))
}
