// What the voice part needs from the platform layer (the part seam's platform, src/part/platform.ts),
// and what speaking answers.
import type { PartPlatform, VoiceFormat } from '../part/platform'

export type { VoiceFormat }

export type SpeechPlatform = Pick<PartPlatform, 'speak' | 'voiceFormat'>

/** Speech for `<voice>` (SPEC §20): the audio as the platform takes it, and how long it plays. */
export type SpokenVoice =
  /** `url`: the audio kept as an asset (the console plays it; send_message's result lists it) */
  | { data: Buffer; mediaType: string; seconds: number; url?: string }
  | { dropped: { code: string; message: string } }

/** Speaking: `text` for a message to `bot`, or why not; never throws. */
export interface VoicePort {
  /** longer text is sent as text (`voice.maxChars`) */
  readonly maxChars: number
  speak(text: string, bot: string, signal?: AbortSignal): Promise<SpokenVoice>
}
