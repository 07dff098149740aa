// A Koishi session → a fact: media registered as assets, so platform links never reach the model.
import { h, Session, Universal } from 'koishi'
import { channelKey, rawChannel } from '../claims/channel-key'
import type { AssetStore } from '../resources/schemes/asset-store'
import type { Fact } from '../history/entries'
import { MEDIA_ELEMENTS, visibleText } from '../util/elements'
import { renderCard } from './inbound/card'
import { namesBot } from './mentions'


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
  return { event, bot: `${event.platform}:${event.selfId}`, selfId: event.selfId, userId, channelId, isDirect, channel }
}

export function botIdOf(session: Session): string {
  return arrivalOf(session).bot
}

export function channelOf(session: Session): string {
  return arrivalOf(session).channel
}

async function replaceMedia(elements: h[], assets: AssetStore): Promise<h[]> {
  const out: h[] = []
  for (const el of elements) {
    const src = el.attrs?.src
    if (MEDIA_ELEMENTS.has(el.type) && typeof src === 'string' && src) {
      const { src: _, url: __, ...rest } = el.attrs
      try {
        const id = await assets.register(src, { mediaType: rest.type ?? rest.mime, filename: rest.filename ?? rest.title ?? rest.file })
        out.push(h(el.type === 'image' ? 'img' : el.type, { src: `asset://${id}`, ...pick(rest) }))
      } catch {
        out.push(h.text(`[${el.type} that could not be stored]`))
      }
      continue
    }
    const card = renderCard(el)
    if (card) {
      out.push(card)
      continue
    }
    const attrs = withoutLinks(el.attrs)
    if (el.children?.length) out.push(h(el.type, attrs, await replaceMedia(el.children, assets)))
    else out.push(attrs === el.attrs ? el : h(el.type, attrs))
  }
  return out
}

const LINK = /^\s*(https?|file|ftp):\/\//i

/**
 * An element the edge does not know may carry a platform link in an attribute (LLOneBot's
 * `mface` has its gif's `url`): such attributes are left out, so a platform URL never reaches the
 * model (SPEC §19). The element itself stays, with its other attributes.
 */
function withoutLinks(attrs: Record<string, any> | undefined): Record<string, any> {
  if (!attrs || !Object.values(attrs).some(v => typeof v === 'string' && LINK.test(v))) return attrs ?? {}
  return Object.fromEntries(Object.entries(attrs).filter(([, v]) => !(typeof v === 'string' && LINK.test(v))))
}

/** Keeps only small descriptive attributes of media elements. */
function pick(attrs: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {}
  for (const k of ['title', 'filename', 'width', 'height', 'duration', 'summary']) {
    if (attrs[k] !== undefined && String(attrs[k]).length < 200) out[k] = attrs[k]
  }
  return out
}

/**
 * `botName`: the bot's display name as the caller knows it (an undefined one is not looked up on
 * the session: every session property is a context proxy, and this runs for every message).
 */
export async function sessionToFact(session: Session, assets: AssetStore, a: Arrival, botName: string | undefined): Promise<Fact> {
  const { event, selfId, userId, channelId, isDirect, channel } = a
  const message = event.message ?? {}
  const quote = message.quote
  const elements = await replaceMedia(message.elements ?? h.parse(message.content ?? ''), assets)
  // an <at> of the bot anywhere (Koishi's atSelf is only the leading one), or its name written out
  const mentionsBot = h.select(elements, 'at').some(at => at.attrs.id === selfId) || namesBot(visibleText(elements), botName)
  const author = event.member?.nick || event.user?.nick || event.user?.name || userId
  const guildId = event.guild?.id
  return {
    id: String(message.id ?? session.id),
    at: event.timestamp || Date.now(),
    bot: a.bot,
    channel,
    ...(event.channel?.name ? { channelName: event.channel.name } : {}),
    ...(guildId ? { guildId } : {}),
    ...(rawChannel(channel) !== channelId ? { rawChannel: channelId } : {}),
    direct: isDirect,
    user: { id: userId, name: author },
    content: elements.join(''),
    ...(quote?.id ? { quote: quoteOf(quote) } : {}),
    mentionsBot,
    quotesBot: !!quote?.user?.id && quote.user.id === selfId,
    ...(event.user?.isBot ? { fromBot: true } : {}),
  }
}

/** The quoted message as a fact carries it: its id, author and the start of its text. */
function quoteOf(quote: { id?: string; user?: { id?: string }; content?: string }): NonNullable<Fact['quote']> {
  return { id: quote.id!, ...(quote.user?.id ? { userId: quote.user.id } : {}), ...(quote.content ? { content: quote.content.slice(0, 200) } : {}) }
}
