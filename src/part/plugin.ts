// A capability as a plugin of its runtime (docs/architecture.md "Parts"): its name, its config
// section and how it is made from a narrow scope. The runtime makes every part of the list in
// src/runtime/part-list.ts with `create` (no I/O there), starts them once it holds its home, and
// stops them before its conversations; nothing else names a part.
import type { ConfigSection } from '../config/section'
import type { Entry, Fact } from '../history/entries'
import type { HistorySide } from '../history/sides'
import type { CallPort } from '../model/calls'
import type { TextCache } from '../resources/text'
import type { OutboundTag } from '../tools/outbound'
import type { RuntimeView } from '../tools/types'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import type { Redactor } from '../util/redact'
import type { TurnAuthor } from '../contract/authors'
import type { PartPlatform } from './platform'
import type { PartRecords } from './records'
import type { RuntimePart } from './runtime-part'

export type { FieldCheck, SectionContext } from '../config/section'

/** A part's section of a profile: declared in config/section.ts, below the parts. */
export type PartSection<C> = ConfigSection<C>

/** A turn a part asks for (an idle wake, a reminder): the attention policies decide when, as for a wait. */
export interface PartTurnRequest {
  reason: string
  /** what the mind reads at the turn's start */
  note?: string
  /** asked when the turn actually starts (it may wait behind a running one): false, it does not start */
  wanted?(): boolean
  /** who the turn acts for (a schedule's asker, SPEC §25): the permission check and the budgets read them */
  authors?: readonly TurnAuthor[]
  /** a promise kept (SPEC §25): never joined into a turn the judge may decline */
  kept?: boolean
}

/** Thrown by a scope's ports once the runtime stopped: nothing is appended, no turn starts. */
export class PartStopped extends Error {
  constructor(what: string) {
    super(`the runtime stopped: ${what} refused`)
    this.name = 'PartStopped'
  }
}

/** What a part is made with: its checked config and narrow ports of its runtime, refusing after stop. */
export interface PartScope<C> {
  readonly config: C
  /** what tools and schemes see of the runtime: profile, bot, home, logger, stores */
  readonly view: RuntimeView
  readonly clock: Clock
  readonly logger: Logger
  /** the runtime's counted model calls (vision, speech, labels) */
  readonly calls: CallPort
  /** what the platform offers beyond sending: speech, proactive messages */
  readonly platform: PartPlatform
  /** the runtime's cache of text files */
  readonly texts: TextCache
  /** the bot's display name, when the edge knows it */
  readonly botName?: string
  /** masks the config's secrets in what a part shows a model (a background run's tool results) */
  readonly redact: Redactor
  /** Koishi's database as this runtime's tables, under `storage: database`; absent: keep files in the home */
  readonly records?: PartRecords
  /** aborted when the runtime stops */
  readonly signal: AbortSignal
  /** the runtime's histories, read with a logger of the reader's own */
  history(logger?: Logger): HistorySide
  /** appends to a conversation's history, loading it if need be (a voice's transcript); PartStopped after stop */
  append(conversation: string, entries: Entry[]): Promise<void>
  /** stores a fact as a live one is (a notice a part gathered: reactions); false or PartStopped once the runtime stops */
  receive(fact: Fact): Promise<boolean>
  /** asks for a turn of `channel`'s conversation; PartStopped after stop */
  request(channel: string, req: PartTurnRequest): Promise<void>
  /** the conversation `channel` belongs to (cross mode: one for every channel) */
  conversationOf(channel: string): string
  /** whether the mind may not speak in `channel` now (muted, paused: SPEC §19) */
  muted(channel: string): boolean
  /**
   * the part `plugin` made for this runtime; undefined when it is off. In `create` only the parts
   * listed before this one are made; a later one is looked up when it is used (start, a hook)
   */
  part<P>(plugin: PartPlugin<any, P>): P | undefined
  /** every part of the runtime, this one's later siblings included (read at call time, not in `create`) */
  parts(): readonly RuntimePart[]
}

/** One capability: made once per runtime from its scope; `create` answers undefined when the profile turns it off. */
export interface PartPlugin<C = unknown, P = RuntimePart> {
  readonly name: string
  readonly section?: PartSection<C>
  /** the send_message elements it serves (their allow-list entries), declared whether it is on or off; its part serves them */
  readonly outbound?: readonly OutboundTag[]
  create(scope: PartScope<C>): (P & RuntimePart) | undefined
  /**
   * whether the runtime home `home` (or its rows, under `storage: database`) holds work due without
   * a message (an idle wake, a reminder), read without making the runtime: the edge starts such a
   * runtime once its bot is online
   */
  pending?(home: string, config: C, records?: PartRecords): Promise<boolean>
}

/** The config type of a plugin's section. */
export type SectionOf<T> = T extends PartPlugin<infer C, any> ? C : never
