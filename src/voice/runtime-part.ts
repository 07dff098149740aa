// Voice as a part of its runtime (SPEC §20): hearing when `voice.stt` is set (the edge hands it each
// voice message as it arrives; a turn waits for transcripts under way a bounded time), speaking when
// `voice.tts` is (send_message's `<voice>`, and the prompt's [voice] line).
import { DEFAULT_VOICE } from '../config/defaults'
import type { Entry } from '../history/entries'
import type { CallPort } from '../model/calls'
import type { RuntimePart } from '../part/runtime-part'
import type { RuntimeView, VoicePort } from '../tools/types'
import type { Clock } from '../util/clock'
import { Hearing } from './hearing'
import { voicePort } from './speaking'
import type { SpeechPlatform } from './types'

export interface Voice {
  /** when `voice.stt` is set */
  hearing?: Hearing
  /** when `voice.tts` is set */
  port?: VoicePort
  part: RuntimePart
}

export interface VoiceDeps {
  clock: Clock
  calls: CallPort
  platform: SpeechPlatform
  append(conversation: string, entries: Entry[]): Promise<void>
}

export function voiceOf(view: RuntimeView, d: VoiceDeps): Voice | undefined {
  const config = view.profile.voice ?? DEFAULT_VOICE
  if (!config.stt && !config.tts) return undefined
  const hearing = config.stt ? new Hearing({ config, assets: view.assets, calls: d.calls, clock: d.clock, logger: view.logger, append: d.append }) : undefined
  const port = config.tts ? voicePort({ config, assets: view.assets, calls: d.calls, platform: d.platform, logger: view.logger }) : undefined
  const part: RuntimePart = {
    name: 'voice',
    ...port ? { prompt: () => ({ flags: { voice: true } }) } : {},
    ...hearing ? {
      beforeTurn: conversation => hearing.settled(conversation, hearing.waitMs),
      written: () => hearing.idle(),
      stop: async () => hearing.stop(),
    } : {},
  }
  return { hearing, port, part }
}
