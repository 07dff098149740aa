// What a part may ask of the platform beyond sending messages; the edge implements it and a part
// tests for each member it needs (absent: the platform cannot).
import type { OutboundTarget } from '../tools/outbound'

/** 'silk': voice only as SILK (QQ's official API); 'silk-preferred': best as SILK (NapCat converts anything else with ffmpeg, which many installs lack) */
export type VoiceFormat = 'silk' | 'silk-preferred'

export interface PartPlatform extends ActsPlatform {
  /** Koishi's vits service speaking `text` as `speaker` (SPEC §20 `voice.tts: vits`) */
  speak?(text: string, speaker: string, signal?: AbortSignal): Promise<{ data: Buffer; mediaType?: string }>
  /** how the platform of `bot` takes voice messages; absent: as they are */
  voiceFormat?(bot: string): VoiceFormat | undefined
  /** whether `bot` may send a message nobody asked for (SPEC §21); absent: it may */
  proactive?(bot: string): boolean
}

/** A reaction as the platform takes it (SPEC §23): QQ's id, and the emoji or face name it stands for. */
export interface ActReaction {
  id: string
  shown: string
  kind: 'face' | 'emoji'
}

/** Which acts of SPEC §23 the platform of a bot has: true, or why not; and how long its own messages may be unsent. */
export interface PlatformActs {
  react: true | string
  poke: true | string
  unsend: true | string
  /** ms after sending that a message may still be unsent; absent: no limit known */
  unsendWindowMs?: number
}

/** The acts a mind makes (SPEC §23), each throwing with the platform's words when it refuses. */
export interface ActsPlatform {
  acts?(bot: string): PlatformActs
  react?(bot: string, target: OutboundTarget, messageId: string, reaction: ActReaction): Promise<void>
  poke?(bot: string, target: OutboundTarget, userId: string): Promise<void>
  unsend?(bot: string, target: OutboundTarget, messageId: string): Promise<void>
}
