// What each platform allows the bot, as data keyed by adapter (SPEC §19 "Capabilities per bot"),
// with what the profile turns on: the console's capability line and kotodama.status show it, and
// why a feature is off. Facts from docs/platforms.md and shared/notes/platforms.md.
import type { ProfileConfig } from '../../config/types'
import type { CapabilityLine } from '../../console-data/types'
import type { VoiceFormat } from '../../voice/types'
import { ONEBOT_FACTS } from '../adapters/onebot/facts'
import type { CapabilityName, PlatformFacts } from '../adapters/platform-facts'
import { QQ_FACTS } from '../adapters/qq/facts'
import { platformOf } from '../../claims/bot-id'
import { sectionOf } from '../../part/section-config'
import { voicePart } from '../../voice/part'
import { actsPart } from '../../acts/part'
import type { PlatformActs } from '../../part/platform'

export type { CapabilityName } from '../adapters/platform-facts'

/** One feature for one bot: on or off, and why when the platform or the config decides. */
export type Capability = CapabilityLine['features'][number] & { name: CapabilityName }

/** A platform with none of QQ's features: messages, media, voice, history where `history` says. */
function plainPlatform(label: string, history: true | string, short = label): PlatformFacts {
  const not = (what: string) => `${short}: ${what}`
  return {
    label,
    has: {
      history, stickerMark: not('stickers are sent as images'), voice: true, poke: not('no pokes'), muteNotices: not('no ban notices'),
      faces: not('faces are sent as text'), passiveReplies: 'not needed: every message may be sent', proactive: true,
      // Satori's createReaction / deleteMessage, which these adapters implement
      react: true, pokeOut: not('no pokes'), unsend: true,
    },
  }
}

const BY_PLATFORM: Record<string, PlatformFacts> = {
  onebot: ONEBOT_FACTS,
  qq: QQ_FACTS,
  discord: plainPlatform('Discord', true),
  telegram: { ...plainPlatform('Telegram', 'Telegram: bots cannot read the history'), unsendWindowMs: 48 * 3600_000 },
  kook: plainPlatform('KOOK', true),
}

const SANDBOX = plainPlatform("Koishi's sandbox", 'sandbox: no history to pull', 'sandbox')

const UNKNOWN: PlatformFacts = {
  label: '',
  has: { history: true, proactive: true, voice: true, passiveReplies: 'not needed: every message may be sent', react: true, unsend: true },
}

/** The acts of SPEC §23 the platform has (an unknown one: Satori's reaction and delete calls, if its adapter has them). */
export function actsOf(platform: string): PlatformActs {
  const facts = factsOf(platform)
  const has = (name: CapabilityName) => facts.has[name] ?? `${facts.label || platform}: not known to work`
  return {
    react: has('react'), poke: has('pokeOut'), unsend: has('unsend'),
    ...(facts.unsendWindowMs !== undefined ? { unsendWindowMs: facts.unsendWindowMs } : {}),
  }
}

function factsOf(platform: string): PlatformFacts {
  return BY_PLATFORM[platform] ?? (platform === 'sandbox' ? SANDBOX : { ...UNKNOWN, label: platform })
}

/** The adapter knows faces (`<face>` out) on this platform. */
export function hasFaces(platform: string): boolean {
  return BY_PLATFORM[platform]?.has.faces === true
}

/** The platform shows an image marked as a sticker as one (`<sticker name>` out, SPEC §19). */
export function hasStickerMark(platform: string): boolean {
  return BY_PLATFORM[platform]?.has.stickerMark === true
}

/** How the platform takes voice messages (SPEC §20). */
export function voiceFormatOf(platform: string): VoiceFormat | undefined {
  return BY_PLATFORM[platform]?.voiceAs
}

/** The platform lets the bot send messages nobody asked for (idle wakes, SPEC §21); an unknown platform does. */
export function allowsProactive(platform: string): boolean {
  return (BY_PLATFORM[platform]?.has.proactive ?? true) === true
}

/** The platform wants a send to carry the message it answers (QQ's passive replies). */
export function needsPassiveReplies(platform: string): boolean {
  return BY_PLATFORM[platform]?.has.passiveReplies === true
}

/** Each feature of `bot` ('platform:selfId') under `profile`: what the platform allows and what is turned on. */
export function capabilitiesOf(bot: string, profile: ProfileConfig): CapabilityLine & { platform: string; features: Capability[] } {
  const platform = platformOf(bot)
  // the console's sandbox bots are `sandbox:<page>:<name>`
  const facts = factsOf(platform)
  const voice = sectionOf(voicePart.section, profile)
  const acts = sectionOf(actsPart.section, profile)
  const config: Partial<Record<CapabilityName, string | undefined>> = {
    history: profile.history?.pull === false ? 'off in the config (history.pull)' : undefined,
    poke: profile.wake.poke === false ? 'off in the config (wake.poke)' : undefined,
    voice: voice.stt || voice.tts ? undefined : 'off in the config (voice.stt, voice.tts)',
    react: acts.react ? undefined : 'off in the config (acts.react)',
    pokeOut: acts.poke ? undefined : 'off in the config (acts.poke)',
    unsend: acts.unsend ? undefined : 'off in the config (acts.unsend)',
  }
  const names: CapabilityName[] = [
    'history', 'stickerMark', 'voice', 'poke', 'muteNotices', 'passiveReplies', 'proactive', 'faces', 'react', 'pokeOut', 'unsend',
  ]
  const features = names.map((name): Capability => {
    const has = facts.has[name]
    if (has !== true) return { name, on: false, why: has ?? `${facts.label || platform}: not known to work` }
    const off = config[name]
    return off ? { name, on: false, why: off } : { name, on: true }
  })
  return { platform, label: facts.label || platform, features }
}
