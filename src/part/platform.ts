// What a part may ask of the platform beyond sending messages; the edge implements it and a part
// tests for each member it needs (absent: the platform cannot).
/** 'silk': voice only as SILK (QQ's official API); 'silk-preferred': best as SILK (NapCat converts anything else with ffmpeg, which many installs lack) */
export type VoiceFormat = 'silk' | 'silk-preferred'

export interface PartPlatform {
  /** Koishi's vits service speaking `text` as `speaker` (SPEC §20 `voice.tts: vits`) */
  speak?(text: string, speaker: string, signal?: AbortSignal): Promise<{ data: Buffer; mediaType?: string }>
  /** how the platform of `bot` takes voice messages; absent: as they are */
  voiceFormat?(bot: string): VoiceFormat | undefined
  /** whether `bot` may send a message nobody asked for (SPEC §21); absent: it may */
  proactive?(bot: string): boolean
}
