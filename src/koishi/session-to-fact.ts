// A Koishi session → a fact: media registered as assets, so platform links never reach the model.
import { h, Session } from 'koishi'
import { channelKey, rawChannel } from '../claims/channel-key'
import type { AssetStore } from '../resources/schemes/asset-store'
import type { Fact } from '../runtime/types'
import { MEDIA_ELEMENTS, visibleText } from '../util/elements'
import { namesBot } from './mentions'


export function botIdOf(session: Session): string {
  return `${session.platform}:${session.selfId}`
}

export function channelOf(session: Session): string {
  return channelKey(session.channelId, session.isDirect, session.userId)
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
    out.push(el.children?.length ? h(el.type, el.attrs, await replaceMedia(el.children, assets)) : el)
  }
  return out
}

/** Keeps only small descriptive attributes of media elements. */
function pick(attrs: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = {}
  for (const k of ['title', 'filename', 'width', 'height', 'duration', 'summary']) {
    if (attrs[k] !== undefined && String(attrs[k]).length < 200) out[k] = attrs[k]
  }
  return out
}

export async function sessionToFact(session: Session, assets: AssetStore): Promise<Fact> {
  const elements = await replaceMedia(session.elements ?? h.parse(session.content ?? ''), assets)
  const selfId = session.selfId
  const mentionsBot = !!session.stripped?.atSelf || h.select(elements, 'at').some(a => a.attrs.id === selfId)
    || namesBot(visibleText(elements), session.bot?.user?.name)
  const quote = session.quote
  const author = session.event?.member?.nick || session.event?.user?.nick || session.event?.user?.name || session.username || session.userId
  return {
    id: String(session.messageId ?? session.id),
    at: session.timestamp || Date.now(),
    bot: botIdOf(session),
    channel: channelOf(session),
    ...(session.event?.channel?.name ? { channelName: session.event.channel.name } : {}),
    ...(session.guildId ? { guildId: session.guildId } : {}),
    ...(rawChannel(channelOf(session)) !== session.channelId ? { rawChannel: session.channelId } : {}),
    direct: session.isDirect,
    user: { id: session.userId, name: author },
    content: elements.join(''),
    ...(quote?.id ? { quote: { id: quote.id, ...(quote.user?.id ? { userId: quote.user.id } : {}), ...(quote.content ? { content: quote.content.slice(0, 200) } : {}) } } : {}),
    mentionsBot,
    quotesBot: !!quote?.user?.id && quote.user.id === selfId,
  }
}
