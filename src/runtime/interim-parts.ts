// Stickers, voice and initiative as plugins of the list through their factories of the last round,
// until their folders offer plugins of their own (issue 37, slice A2 replaces this file).
import { DEFAULT_INITIATIVE } from '../config/defaults'
import { InitiativePart } from '../initiative/part'
import type { PartPlugin } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import type { StickerLibrary } from '../stickers/library'
import { stickersOf } from '../stickers/runtime-part'
import type { VoicePort } from '../tools/types'
import type { Hearing } from '../voice/hearing'
import { voiceOf } from '../voice/runtime-part'

export interface StickersPart extends RuntimePart {
  readonly library: StickerLibrary
}

export const stickersPart: PartPlugin<unknown, StickersPart> = {
  name: 'stickers',
  create(scope) {
    const made = stickersOf(scope.view, { clock: scope.clock, calls: scope.calls })
    return made && { ...made.part, library: made.library }
  },
}

export interface VoicePart extends RuntimePart {
  /** when `voice.stt` is set */
  readonly hearing?: Hearing
  /** send_message's `<voice>`, when `voice.tts` is set */
  readonly port?: VoicePort
}

export const voicePart: PartPlugin<unknown, VoicePart> = {
  name: 'voice',
  create(scope) {
    const made = voiceOf(scope.view, { clock: scope.clock, calls: scope.calls, platform: scope.platform, append: (c, e) => scope.append(c, e) })
    return made && { ...made.part, ...made.hearing ? { hearing: made.hearing } : {}, ...made.port ? { port: made.port } : {} }
  },
}

export const initiativePart: PartPlugin<unknown, InitiativePart> = {
  name: 'initiative',
  create(scope) {
    const config = scope.view.profile.initiative ?? DEFAULT_INITIATIVE
    if (!config.enabled) return undefined
    const { view, platform } = scope
    return new InitiativePart({
      config, dayZone: view.timezone, home: view.home, bot: view.bot, clock: scope.clock, logger: scope.logger, random: Math.random,
      proactive: () => platform.proactive?.(view.bot) !== false, muted: ch => scope.muted(ch), request: (ch, req) => scope.request(ch, req),
    })
  },
}
