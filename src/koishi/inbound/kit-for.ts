// The render kit of one incoming message: the runtime's assets, the platform's forward fetch, the
// sticker library and the voice part's hearing (each where the runtime has it).
import type { Bot } from 'koishi'
import type { RenderKit, VoiceOrigin } from '../../inbound/kit'
import { stickerLookup } from '../../inbound/sticker-match'
import type { Runtime } from '../../runtime/runtime'
import { stickersPart } from '../../stickers/part'
import { voicePart } from '../../voice/part'
import type { Logger } from '../../util/logger'
import { onebotForward } from '../adapters/onebot/forward'
import { platformOf } from '../../claims/bot-id'

export type { VoiceOrigin } from '../../inbound/kit'

/** How the runtime hears the voices of one message; undefined when voice.stt is not set. */
export function hearingFor(runtime: Runtime, m: VoiceOrigin): RenderKit['voice'] {
  const hearing = runtime.part(voicePart)?.hearing
  if (!hearing) return undefined
  const message = { conversation: runtime.conversationKey(m.channel), ...m }
  return (url, seconds) => hearing.hear(url, message, seconds)
}

/**
 * `bot` is asked only when a forward is fetched: a Koishi bot is reached through a context proxy,
 * dear at every plain message (bench 11, ingest).
 */
export function kitFor(runtime: Runtime, bot: () => Bot, log: Logger, m: VoiceOrigin): RenderKit {
  const stickers = stickerLookup(runtime.part(stickersPart)?.library)
  const forward: RenderKit['forward'] = platformOf(runtime.bot) === 'onebot' ? async id => onebotForward(bot(), log)?.(id) : undefined
  return { assets: runtime.assets, forward, stickers, voice: hearingFor(runtime, m) }
}
