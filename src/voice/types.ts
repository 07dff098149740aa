// What the voice part needs from the platform layer: the part seam's platform (src/part/platform.ts).
import type { PartPlatform, VoiceFormat } from '../part/platform'

export type { VoiceFormat }

export type SpeechPlatform = Pick<PartPlatform, 'speak' | 'voiceFormat'>
