// The parts a runtime is composed of, in prompt order (docs/architecture.md "Parts"). A temporary
// bridge until the part list (runtime/part-list.ts) makes every part: memory, people and recall are
// made here as before; stickers, voice and initiative are plugins made from a scope.
import { join } from 'node:path'
import { DEFAULT_MEMORY } from '../config/defaults'
import type { HistorySide } from '../history/sides'
import { Memory } from '../memory/memory'
import { memoryPart } from '../memory/runtime-part'
import { peopleOf } from '../memory/people-part'
import type { RuntimePart } from '../part/runtime-part'
import { PartStopped, type PartPlugin, type PartScope, type PartTurnRequest } from '../part/plugin'
import type { PartPlatform } from '../part/platform'
import { Recall } from '../recall'
import { recallPart } from '../recall/runtime-part'
import type { TextCache } from '../resources/text'
import type { CallPort } from '../model/calls'
import type { StickerLibrary } from '../stickers/library'
import { stickersPart } from '../stickers/part'
import type { RuntimeView } from '../tools/types'
import type { OutboundElements } from '../tools/outbound'
import { outboundOf } from '../part/outbound-of'
import type { Entry } from '../history/entries'
import { initiativePart } from '../initiative/part'
import type { IdleWakes } from '../initiative/idle-wakes'
import type { IdleNext } from '../initiative/schedule'
import { voicePart, type VoicePart } from '../voice/part'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'

/** The plugins made from a scope, in part order (after memory, people and recall). */
const PLUGINS = [stickersPart, voicePart, initiativePart] as const

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
  platform: PartPlatform
  /** whether the mind may not speak in `channel` now (SPEC §19: muted, paused) */
  muted(channel: string): boolean
  /** appends to a conversation's history, loading it if need be (a voice's transcript) */
  append(conversation: string, entries: Entry[]): Promise<void>
  /** asks for a turn of `channel`'s conversation (an idle wake): the attention policies decide when, as for a wait */
  request(channel: string, req: PartTurnRequest): Promise<void>
  /** the runtime stopped: the scopes' ports refuse */
  stopped(): boolean
  conversationOf(channel: string): string
}

export interface RuntimeParts {
  /** local:// as the mind's memory: its writer, quotas and the memory section (SPEC §13) */
  memory: Memory
  /** what was said, searched: the search tool and history:// (SPEC §17) */
  recall: Recall
  /** the sticker library, when stickers.enabled (SPEC §19) */
  stickers?: StickerLibrary
  /** hearing and speaking, when voice.stt or voice.tts is set (SPEC §20) */
  voice?: VoicePart
  /** the elements the parts serve in send_message */
  elements: OutboundElements
  all: RuntimePart[]
}

export function runtimeParts(d: PartsDeps): RuntimeParts {
  const { view } = d
  const root = join(view.home, 'local')
  const people = peopleOf(view, root)
  const memory = new Memory({
    root, config: view.profile.memory ?? DEFAULT_MEMORY, texts: d.texts, logger: view.logger, guard: people.guard, unlisted: people.unlisted,
  })
  const all: RuntimePart[] = []
  const searchable = () => all.flatMap(p => { const s = p.searchable?.(); return s ? [s] : [] })
  const recall = new Recall(view, {
    history: d.history, clock: d.clock, botName: d.botName, recalled: d.recalled, searchable, noteVisible: (rel, scope) => people.guard.visible(rel, scope),
  })
  all.push(memoryPart(memory, view), people.part, recallPart(recall))
  const made = new Map<PartPlugin<any, any>, RuntimePart>()
  for (const plugin of PLUGINS) {
    const part = (plugin as PartPlugin<any, RuntimePart>).create(scopeFor(plugin, d, made, all))
    if (part) made.set(plugin, part)
    if (part) all.push(part)
  }
  const elements = outboundOf(PLUGINS, all)
  const voice = made.get(voicePart) as VoicePart | undefined
  return { memory, recall, stickers: (made.get(stickersPart) as { library?: StickerLibrary } | undefined)?.library, voice, elements, all }
}

function scopeFor(plugin: PartPlugin<any, any>, d: PartsDeps, made: Map<PartPlugin<any, any>, RuntimePart>, all: RuntimePart[]): PartScope<any> {
  const section = plugin.section
  const config = section ? (d.view.profile as unknown as Record<string, unknown>)[section.key] ?? section.default : undefined
  const refuse = (what: string) => { if (d.stopped()) throw new PartStopped(what) }
  const stopping = new AbortController()
  return {
    config, view: d.view, clock: d.clock, logger: d.view.logger, calls: d.calls, platform: d.platform, texts: d.texts, botName: d.botName,
    signal: stopping.signal,
    history: logger => d.history(logger ?? d.view.logger),
    append: async (key, entries) => { refuse('append'); await d.append(key, entries) },
    request: async (channel, req) => { refuse('a turn request'); await d.request(channel, req) },
    muted: channel => d.muted(channel),
    conversationOf: channel => d.conversationOf(channel),
    part: p => made.get(p) as any,
    parts: () => all,
  }
}

/** The idle wakes among a runtime's parts, if on (the part set's typed lookup replaces this). */
export function initiativeIn(parts: readonly RuntimePart[]): IdleWakes | undefined {
  return parts.find((p): p is IdleWakes => p.name === initiativePart.name)
}

/** Conversation statuses with their next idle wake, where the part is on (the parts' `status` replaces this). */
export function annotateIdle<S extends { key: string }>(parts: readonly RuntimePart[], statuses: S[]): (S & { idle?: IdleNext })[] {
  const part = initiativeIn(parts)
  return part ? statuses.map(s => ({ ...s, ...part.status(s.key) })) : statuses
}

/** Starts each part in turn once the runtime holds its home; one that fails stops those started and the start fails. */
export async function startParts(parts: readonly RuntimePart[], logger: Logger, profile: string): Promise<void> {
  const started: RuntimePart[] = []
  for (const p of parts) {
    try {
      await p.start?.()
      started.push(p)
    } catch (e) {
      await stopParts(started.reverse(), logger, profile)
      throw e
    }
  }
}

/** Stops each part in turn; one that fails is logged and the next still stops. */
export async function stopParts(parts: readonly RuntimePart[], logger: Logger, profile: string): Promise<void> {
  const unclean = (p: RuntimePart, e: any) => logger.warn('profile %s: %s did not stop cleanly: %s', profile, p.name, e?.message ?? e)
  for (const p of parts) await p.stop?.().catch(e => unclean(p, e))
}
