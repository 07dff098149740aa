// What an adapter's platform allows the bot, as data (SPEC §19 "Capabilities per bot"): each
// adapter folder declares its own; presence/capabilities.ts reads them by `bot.platform`.
import type { VoiceFormat } from '../../voice/types'

export type CapabilityName = 'history' | 'stickerMark' | 'voice' | 'poke' | 'muteNotices' | 'passiveReplies' | 'proactive' | 'faces'

export interface PlatformFacts {
  /** the adapter's name for the owner ("OneBot (NapCat, Lagrange)") */
  label: string
  /** true, or why not */
  has: Partial<Record<CapabilityName, true | string>>
  /** how it takes voice messages (SPEC §20); absent: as they are */
  voiceAs?: VoiceFormat
}
