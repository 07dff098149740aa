// The parts a runtime is composed of, in prompt order (docs/architecture.md "Parts"): a new
// capability (stickers, voice, people) is made here and joins the list; runtime.ts loops over it,
// and hands `send` (what send_message may use of the parts) to its conversations.
import { join } from 'node:path'
import { DEFAULT_MEMORY } from '../config/defaults'
import type { HistorySide } from '../history/sides'
import { Memory } from '../memory/memory'
import { memoryPart } from '../memory/runtime-part'
import { peopleOf } from '../memory/people-part'
import type { RuntimePart } from '../part/runtime-part'
import { Recall } from '../recall'
import { recallPart } from '../recall/runtime-part'
import type { TextCache } from '../resources/text'
import type { CallPort } from '../model/calls'
import type { StickerLibrary } from '../stickers/library'
import { stickersOf } from '../stickers/runtime-part'
import type { RuntimeView, VoicePort } from '../tools/types'
import type { Entry } from '../history/entries'
import type { SpeechPlatform } from '../voice/types'
import { DEFAULT_INITIATIVE } from '../config/defaults'
import { InitiativePart } from '../initiative/part'
export { annotateIdle } from '../initiative/part'
import { voiceOf, type Voice } from '../voice/runtime-part'
import type { PortShelf } from './sticker-port'
import type { TurnRequest } from './turn-port'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'

export interface PartsDeps {
  view: RuntimeView
  texts: TextCache
  clock: Clock
  /** the runtime's counted model calls (the stickers' labels by the vision model) */
  calls: CallPort
  botName?: string
  /** the runtime's histories, read with a logger of the reader's own */
  history(logger: Logger): HistorySide
  /** whether message `id` of `channel` was recalled (SPEC §19) */
  recalled(channel: string, id: string): boolean
  /** the platform's speech (SPEC §20: Koishi's vits service, SILK where needed) */
  platform: SpeechPlatform & { proactive?(bot: string): boolean }
  /** whether the mind may not speak in `channel` now (SPEC §19: muted, paused) */
  muted(channel: string): boolean
  /** appends to a conversation's history, loading it if need be (a voice's transcript) */
  append(conversation: string, entries: Entry[]): Promise<void>
  /** asks for a turn of `channel`'s conversation (an idle wake): the attention policies decide when, as for a wait */
  request(channel: string, req: TurnRequest): Promise<void>
}

/** What send_message may use of the parts: each absent when its part is off. */
export interface SendPorts {
  /** `<sticker name>` (SPEC §19) */
  stickers?: PortShelf
  /** `<voice>` (SPEC §20) */
  voice?: VoicePort
}

export interface RuntimeParts {
  /** local:// as the mind's memory: its writer, quotas and the memory section (SPEC §13) */
  memory: Memory
  /** what was said, searched: the search tool and history:// (SPEC §17) */
  recall: Recall
  /** the sticker library, when stickers.enabled (SPEC §19) */
  stickers?: StickerLibrary
  /** hearing and speaking, when voice.stt or voice.tts is set (SPEC §20) */
  voice?: Voice
  send: SendPorts
  all: RuntimePart[]
}

export function runtimeParts(d: PartsDeps): RuntimeParts {
  const { view } = d
  const root = join(view.home, 'local')
  const people = peopleOf(view, root)
  const memory = new Memory({
    root, config: view.profile.memory ?? DEFAULT_MEMORY, texts: d.texts, logger: view.logger, guard: people.guard, unlisted: people.unlisted,
  })
  const stickers = stickersOf(view, { clock: d.clock, calls: d.calls })
  const all: RuntimePart[] = []
  const searchable = () => all.flatMap(p => { const s = p.searchable?.(); return s ? [s] : [] })
  const recall = new Recall(view, {
    history: d.history, clock: d.clock, botName: d.botName, recalled: d.recalled, searchable, noteVisible: (rel, scope) => people.guard.visible(rel, scope),
  })
  const voice = voiceOf(view, { clock: d.clock, calls: d.calls, platform: d.platform, append: d.append })
  const idle = initiativeOf(d)
  all.push(memoryPart(memory, view), people.part, recallPart(recall), ...stickers ? [stickers.part] : [], ...voice ? [voice.part] : [], ...idle ? [idle] : [])
  const send: SendPorts = { ...stickers ? { stickers: stickers.library } : {}, ...voice?.port ? { voice: voice.port } : {} }
  return { memory, recall, stickers: stickers?.library, voice, send, all }
}

/** Idle wakes (SPEC §21), when initiative.enabled. */
function initiativeOf(d: PartsDeps): InitiativePart | undefined {
  const config = d.view.profile.initiative ?? DEFAULT_INITIATIVE
  if (!config.enabled) return undefined
  const { view, platform } = d
  return new InitiativePart({
    config, dayZone: view.timezone, home: view.home, bot: view.bot, clock: d.clock, logger: view.logger, random: Math.random,
    proactive: () => platform.proactive?.(view.bot) !== false, muted: d.muted, request: (ch, req) => d.request(ch, req),
  })
}

/** Stops each part in turn; one that fails is logged and the next still stops. */
export async function stopParts(parts: readonly RuntimePart[], logger: Logger, profile: string): Promise<void> {
  const unclean = (p: RuntimePart, e: any) => logger.warn('profile %s: %s did not stop cleanly: %s', profile, p.name, e?.message ?? e)
  for (const p of parts) await p.stop?.().catch(e => unclean(p, e))
}
