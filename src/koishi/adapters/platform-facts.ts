// What an adapter's platform allows the bot, as data (SPEC §19 "Capabilities per bot"): each
// adapter folder declares its own; presence/capabilities.ts reads them by `bot.platform`.
import type { VoiceFormat } from '../../voice/types'

/** `poke`: pokes of the bot seen; `react`, `pokeOut`, `unsend`: the acts the mind makes (SPEC §23) */
export type CapabilityName = 'history' | 'stickerMark' | 'voice' | 'poke' | 'muteNotices' | 'passiveReplies' | 'proactive' | 'faces'
  | 'react' | 'pokeOut' | 'unsend'

export interface PlatformFacts {
  /** the adapter's name for the owner ("OneBot (NapCat, Lagrange)") */
  label: string
  /** true, or why not */
  has: Partial<Record<CapabilityName, true | string>>
  /** how it takes voice messages (SPEC §20); absent: as they are */
  voiceAs?: VoiceFormat
  /** ms after sending that the bot may still take its message back (SPEC §23); absent: no limit known */
  unsendWindowMs?: number
}
