// A Koishi session → a fact: media registered as assets, so platform links never reach the model.
import { h, Session, Universal } from 'koishi'
import { channelKey, rawChannel } from '../../claims/channel-key'
import type { LiveArrival } from '../../history-pull/ports'
import type { Fact } from '../../history/entries'
import type { VoiceOrigin } from '../../inbound/kit'
import { mentionsBot } from '../../inbound/mentions'
import { renderElements, type RenderKit } from '../../inbound/render'
import { botId } from '../../claims/bot-id'
import type { GroupRole } from '../../contract/authors'


/**
 * A session's fields read from its plain event: every property of a Koishi session is reached
 * through a context proxy, which costs more than storing the fact at thousands of messages.
 */
export interface Arrival {
  event: Universal.Event
  bot: string
  selfId: string
  userId?: string
  channelId?: string
  isDirect: boolean
  /** the conversation key of the channel (SPEC §1) */
  channel: string
}

export function arrivalOf(session: Session): Arrival {
  const event = session.event
  const isDirect = event.channel?.type === Universal.Channel.Type.DIRECT
  const userId = event.user?.id
  const channelId = event.channel?.id
  const channel = channelKey(channelId, isDirect, userId)
  return { event, bot: botId(event.platform, event.selfId), selfId: event.selfId, userId, channelId, isDirect, channel }
}

export function botIdOf(session: Session): string {
  return arrivalOf(session).bot
}

export function channelOf(session: Session): string {
  return arrivalOf(session).channel
}

/** The message a voice of this arrival came with (SPEC §20): its id, channel and author, as its fact will say. */
export function voiceOrigin(a: Arrival): VoiceOrigin {
  const { event } = a
  const id = String(event.message?.id ?? '')
  return { id, channel: a.channel, user: { id: a.userId ?? '', name: authorOf(a) ?? '' } }
}

/** The arrival as the history pull sees it (SPEC §19): where it is, its platform id and time (0: unknown). */
export function liveOf(a: Arrival): LiveArrival {
  const { event } = a
  return {
    channel: a.channel, channelId: a.channelId ?? rawChannel(a.channel), direct: a.isDirect,
    ...(event.guild?.id ? { guildId: event.guild.id } : {}), ...(event.channel?.name ? { channelName: event.channel.name } : {}),
    id: String(event.message?.id ?? ''), at: event.timestamp || 0,
  }
}

const GROUP_ROLES: readonly string[] = ['owner', 'admin', 'member']

/**
 * The author's role in the group (SPEC §22). OneBot's adapter puts `sender.role` as the member's
 * only role (`decodeGuildMember`); other adapters give role ids of their own (QQ's official one
 * none for groups), which name no group role here. A private chat has none.
 */
function roleOf(a: Arrival): GroupRole | undefined {
  if (a.isDirect) return undefined
  const id = a.event.member?.roles?.[0]?.id
  return id && GROUP_ROLES.includes(id) ? id as GroupRole : undefined
}

const authorOf = (a: Arrival) => a.event.member?.nick || a.event.user?.nick || a.event.user?.name || a.userId

/**
 * `botName`: the bot's display name as the caller knows it (an undefined one is not looked up on
 * the session: every session property is a context proxy, and this runs for every message).
 */
/** `groupName`: the group's name asked of the platform when the event has none (guild-names.ts) */
export async function sessionToFact(session: Session, kit: RenderKit, a: Arrival, botName: string | undefined, groupName?: string): Promise<Fact> {
  const { event, selfId, userId, channelId, isDirect, channel } = a
  const message = event.message ?? {}
  const quote = message.quote
  const given = message.elements ?? h.parse(message.content ?? '')
  const elements = await renderElements(given, kit)
  // an <at> of the bot anywhere in the message's own words (Koishi's atSelf is only the leading one),
  // or its name written out; never inside a forward or a quote (SPEC §22)
  const mentions = mentionsBot(given, selfId, botName)
  const author = authorOf(a)
  const guildId = event.guild?.id
  const role = roleOf(a)
  return {
    id: String(message.id ?? session.id),
    at: event.timestamp || Date.now(),
    bot: a.bot,
    channel,
    ...(event.channel?.name || groupName ? { channelName: event.channel?.name || groupName } : {}),
    ...(guildId ? { guildId } : {}),
    ...(rawChannel(channel) !== channelId ? { rawChannel: channelId } : {}),
    direct: isDirect,
    user: { id: userId, name: author },
    ...(role ? { role } : {}),
    content: elements.join(''),
    ...(quote?.id ? { quote: quoteOf(quote) } : {}),
    mentionsBot: mentions,
    quotesBot: !!quote?.user?.id && quote.user.id === selfId,
    ...(event.user?.isBot ? { fromBot: true } : {}),
  }
}

/** The quoted message as the adapter gives it: its id, author and the start of its markup (the runtime keeps its text only when it holds the message). */
function quoteOf(quote: { id?: string; user?: { id?: string }; content?: string }): NonNullable<Fact['quote']> {
  return { id: quote.id!, ...(quote.user?.id ? { userId: quote.user.id } : {}), ...(quote.content ? { content: quote.content.slice(0, 800) } : {}) }
}
