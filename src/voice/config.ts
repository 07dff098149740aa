// The voice section of a profile (SPEC §20): its type, its default (off), its console form with
// texts, and its checks. Speech models are `models` entries of OpenAI-compatible servers.
import Schema from 'schemastery'
import type { FieldCheck, PartSection } from '../part/plugin'
import zhCN from './config.zh-CN.yml'
import enUS from './config.en-US.yml'

export interface VoiceConfig {
  /** a model id (/v1/audio/transcriptions); '': voice messages are not transcribed */
  stt: string
  /** a model id (/v1/audio/speech), or 'vits' (Koishi's vits service); '': the mind does not speak */
  tts: string
  /** the voice (speaker) the TTS model takes; '' : the server's default ('alloy' for OpenAI) */
  ttsVoice: string
  /** longer voice messages are not transcribed */
  maxSeconds: number
  /** longer <voice> text is sent as text */
  maxChars: number
}

export const DEFAULT_VOICE: Readonly<VoiceConfig> = { stt: '', tts: '', ttsVoice: '', maxSeconds: 60, maxChars: 300 }

/** `stt` and `tts` name speech models ('vits': Koishi's service); an unknown one turns its side off. */
const model = (vits: boolean): FieldCheck => (v, context) => {
  if (typeof v !== 'string') return 'must be a model id or empty'
  if (!v || context.hasModel(v) || (vits && v === 'vits')) return undefined
  return `names unknown model "${v}"${vits ? " (or write 'vits' for Koishi's vits service)" : ''}`
}

const CHECKS: Record<keyof VoiceConfig, FieldCheck> = {
  stt: model(false),
  tts: model(true),
  ttsVoice: v => typeof v === 'string' ? undefined : 'must be a voice name or empty',
  maxSeconds: v => typeof v === 'number' && Number.isFinite(v) && v > 0 ? undefined : 'must be a number > 0',
  maxChars: v => Number.isInteger(v) && (v as number) > 0 ? undefined : 'must be a whole number > 0',
}

function schema(): Schema<any, VoiceConfig> {
  const d = DEFAULT_VOICE
  return Schema.object({
    stt: Schema.string().default(d.stt),
    tts: Schema.string().default(d.tts),
    ttsVoice: Schema.string().default(d.ttsVoice),
    maxSeconds: Schema.number().default(d.maxSeconds),
    maxChars: Schema.number().default(d.maxChars),
  }).i18n({ 'zh-CN': zhCN, 'en-US': enUS }) as Schema<any, VoiceConfig>
}

export const voiceSection: PartSection<VoiceConfig> = { key: 'voice', default: DEFAULT_VOICE, schema, checks: CHECKS }
