// A message read from a platform's history → a fact, as the edge's session-to-fact.ts makes one of a live
// message: the same channel key and platform ids, the author's card or nickname, the platform's
// time, media registered as assets through the same renderers; marked `pulled`.
import { rawChannel } from '../claims/channel-key'
import type { Fact } from '../history/entries'
import type { VoiceOrigin } from '../inbound/kit'
import { mentionsBot } from '../inbound/mentions'
import { renderElements, type RenderKit } from '../inbound/render'
import type { ChannelPlace } from './ports'
import type { FetchedMessage } from './window'

export interface PulledFactKit extends RenderKit {
  bot: string
  selfId: string
  botName?: string
  /** how the voices of one message are heard (SPEC §20), when voice.stt is set */
  hear?(m: VoiceOrigin): RenderKit['voice']
}

export async function pulledFact(m: FetchedMessage, place: ChannelPlace, kit: PulledFactKit): Promise<Fact> {
  const voice = kit.hear?.({ id: m.id, channel: place.channel, user: { id: m.user.id, name: m.user.name } })
  const elements = await renderElements(m.elements, voice ? { ...kit, voice } : kit)
  const mentions = mentionsBot(m.elements, kit.selfId, kit.botName)
  return {
    id: m.id,
    at: m.at,
    bot: kit.bot,
    channel: place.channel,
    ...(place.channelName ? { channelName: place.channelName } : {}),
    ...(place.guildId ? { guildId: place.guildId } : {}),
    ...(rawChannel(place.channel) !== place.channelId ? { rawChannel: place.channelId } : {}),
    direct: place.direct,
    user: { id: m.user.id, name: m.user.name },
    content: elements.join(''),
    ...(m.quote ? { quote: { id: m.quote.id } } : {}),
    mentionsBot: mentions,
    ...(m.user.isBot ? { fromBot: true } : {}),
    pulled: true,
  }
}
