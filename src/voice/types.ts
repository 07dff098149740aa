// What the voice part needs from the platform layer (the runtime's Platform implements it).

/** 'silk': voice only as SILK (QQ's official API); 'silk-preferred': best as SILK (NapCat converts anything else with ffmpeg, which many installs lack). */
export type VoiceFormat = 'silk' | 'silk-preferred'

export interface SpeechPlatform {
  /** Koishi's vits service speaking `text` as `speaker` (`voice.tts: vits`) */
  speak?(text: string, speaker: string, signal?: AbortSignal): Promise<{ data: Buffer; mediaType?: string }>
  voiceFormat?(bot: string): VoiceFormat | undefined
}
