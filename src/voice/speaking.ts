// Speaking (SPEC §20): send_message's `<voice>` through the profile's `voice.tts`, an OpenAI-compatible
// /v1/audio/speech model asked for WAV (what kotodama can encode as SILK), or Koishi's vits service.
// Never throws: a failure is a `dropped` and the words go as text.
import type { CallPort } from '../model/calls'
import type { VoiceConfig } from './config'
import type { AssetStore } from '../resources/schemes/asset-store'
import type { Logger } from '../util/logger'
import { speak } from './speech-calls'
import { readyVoice } from './spoken-audio'
import type { SpeechPlatform, SpokenVoice, VoicePort } from './types'
import { VoiceError } from './voice-error'
import { withoutUrls } from '../util/without-urls'

export interface SpeakingDeps {
  config: VoiceConfig
  /** where the spoken audio is kept (the console plays it) */
  assets: Pick<AssetStore, 'keep'>
  calls: CallPort
  platform: SpeechPlatform
  logger: Logger
}

export function voicePort(d: SpeakingDeps): VoicePort {
  const { config, platform } = d
  const synthesize = async (text: string, signal?: AbortSignal): Promise<Buffer> => {
    if (config.tts !== 'vits') return speak(d.calls, config.tts, text, { voice: config.ttsVoice, format: 'wav', signal })
    if (!platform.speak) throw new VoiceError('no_vits', "voice.tts is 'vits' but no vits service is installed")
    try {
      return (await platform.speak(text, config.ttsVoice, signal)).data
    } catch (e: any) {
      // the platform's own verdict stands (no vits service is installed: no_vits); anything else is the service failing
      if (e instanceof VoiceError) throw e
      // the model reads this: a link of the service (its server, a platform's file) is left out
      const said = withoutUrls(String(e?.message ?? e)).slice(0, 160)
      throw new VoiceError('speech_failed', `the vits service failed: ${said}`)
    }
  }
  return {
    maxChars: config.maxChars,
    async speak(text, bot, signal): Promise<SpokenVoice> {
      try {
        const voice = await readyVoice(await synthesize(text, signal), text, platform.voiceFormat?.(bot))
        // kept for the console; a store that cannot keep it (a full disk) does not stop the voice
        const id = await d.assets.keep(voice.data, { mediaType: voice.mediaType, filename: 'voice' }, { made: 'voice' })
          .catch((e: any): undefined => void d.logger.warn('a spoken voice could not be kept: %s', e?.message ?? e))
        return id ? { ...voice, url: `asset://${id}` } : voice
      } catch (e: any) {
        const code = e instanceof VoiceError ? e.code : 'speech_failed'
        const message = e instanceof VoiceError ? e.message : `the speech could not be made ready (${e?.message ?? e})`
        d.logger.info('a voice was sent as text: %s', message)
        return { dropped: { code, message } }
      }
    },
  }
}
