// Voice as a part (SPEC §20): hearing when `voice.stt` is set (the edge hands it each voice message
// as it arrives; a turn waits for transcripts under way a bounded time), speaking when `voice.tts`
// is (send_message's `<voice>`, and the prompt's [voice] line).
import PROTOCOL from './protocol.md'
import type { PartPlugin } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import type { OutboundServer } from '../tools/outbound'
import { voiceSection, type VoiceConfig } from './config'
import { Hearing } from './hearing'
import { VOICE_TAG, voiceServer } from './send-voice'
import { voicePort } from './speaking'

export interface VoicePart extends RuntimePart {
  /** when `voice.stt` is set: the edge hands it the voice messages that arrive */
  readonly hearing?: Hearing
}

export const voicePart: PartPlugin<VoiceConfig, VoicePart> = {
  name: 'voice',
  section: voiceSection,
  outbound: [VOICE_TAG],
  create(scope) {
    const config = scope.config
    if (!config.stt && !config.tts) return undefined
    const { view, calls, clock, logger } = scope
    const append = scope.append.bind(scope)
    const hearing = config.stt ? new Hearing({ config, assets: view.assets, calls, clock, logger, append }) : undefined
    const port = config.tts ? voicePort({ config, assets: view.assets, calls, platform: scope.platform, logger }) : undefined
    const server: OutboundServer | undefined = port && voiceServer(port)
    return {
      name: 'voice',
      hearing,
      ...server ? { prompt: () => ({ protocol: PROTOCOL }), outbound: () => [server] } : {},
      ...hearing ? {
        beforeTurn: (conversation: string) => hearing.settled(conversation, hearing.waitMs),
        written: () => hearing.idle(),
        stop: async () => hearing.stop(),
      } : {},
    }
  },
}
