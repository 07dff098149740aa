// The history's shapes: what a conversation stores, below everything that reads it (runtime,
// recall, attention, the console). Nothing here knows Koishi sessions: the edge converts them.
import type { ModelMessage } from 'ai'
import type { AttachmentItem } from '../exit/attachments'
import type { StepUsage } from '../usage/book'
import type { GroupRole } from '../contract/authors'

/** One incoming chat message, already converted by the edge (media src are asset:// URLs). */
export interface Fact {
  id: string
  at: number
  bot: string            // 'platform:selfId'
  channel: string        // canonical channel key (see docs/decisions.md)
  channelName?: string
  guildId?: string
  /** the platform's own channel id, when it is not the key's (see channel-key.ts) */
  rawChannel?: string
  direct: boolean
  user: { id: string; name: string }
  /** the author's role in the group, where the platform gives it (OneBot's sender.role; SPEC §22) */
  role?: GroupRole
  content: string        // element markup
  /**
   * `content`: the quoted message as the adapter gave it (any chat's: never kept past ingest, never
   * shown); `text`: the start of its visible text, kept only when this conversation holds it (SPEC §22)
   */
  quote?: { id: string; userId?: string; content?: string; text?: string }
  mentionsBot?: boolean
  quotesBot?: boolean
  /** the platform marks its author as a bot (SPEC §15: never wakes unless wake.fromBots) */
  fromBot?: boolean
  /**
   * A platform notice stored as a fact of its conversation (SPEC §19): `content` is what happened,
   * told from its author's side ("poked you", "joined the group"); it has no message id to quote.
   */
  notice?: 'poke' | 'join' | 'leave' | 'reaction'
  /** notice 'reaction' (SPEC §23): reactions people added to one message, gathered over a window; `user` is the first of `by` */
  reactions?: ReactionTally
  /** the notice is a poke of this bot (it wakes like a mention: wake.poke) */
  pokesBot?: boolean
  /** its author recalled it: the model reads "[recalled]" from then on (history/recalled.ts) */
  recalled?: boolean
  /** fetched from the platform's history after downtime (SPEC §19), not delivered live: it never wakes the mind */
  pulled?: boolean
}

/** Reactions to message `to`: who (the first few; `others` more), each emoji with its count. */
export interface ReactionTally {
  to: string
  by: { id: string; name: string }[]
  others: number
  /** [emoji as shown, count], in the order first seen; `more`: reactions of kinds past the kept ones */
  emoji: [string, number][]
  more?: number
}

export type WakeReason = string

/** A voice message transcribed, or why not; `message` is the fact it came with (recall finds it by its author). */
export interface TranscriptEntry {
  type: 'transcript'
  at: number
  /** the voice's asset:// URL, as the fact's `[voice: …]` shows it */
  url: string
  message: { id: string; channel: string; user: { id: string; name: string } }
  /** its length, when known */
  seconds?: number
  /** what was said */
  text?: string
  /** why it was not transcribed (`text` absent) */
  why?: string
}

/**
 * The step the model has answered while its calls still run (the console shows it at once, issue
 * 21); it becomes a step entry when they are done. `delivered`: messages sent so far, by call id.
 */
export interface LiveStep {
  at: number
  turn: number
  assistant?: ModelMessage
  usage?: StepUsage
  delivered: Record<string, number>
}

export type Entry =
  /** `held`: why a fact that would have woken the mind did not (SPEC §15: stale, bot, perUser) */
  | { type: 'fact'; at: number; fact: Fact; wake?: WakeReason; held?: string }
  | { type: 'note'; at: number; kind: 'wake' | 'reminder' | 'info'; text: string }
  /**
   * `usage`: which model answered and what it cost (absent in older histories); `loaded`: searched tools it loaded (SPEC §18);
   * `sent`: when each message its calls delivered went out, by id (an unsend's window after a restart, SPEC §23)
   */
  | { type: 'step'; at: number; turn: number; messages: ModelMessage[]; usage?: StepUsage; loaded?: string[]; sent?: Record<string, number> }
  /**
   * `merged`: waking facts this turn answers; `waitedMs`: from the first of them to the start (burst, cooldown; SPEC §15);
   * `chat`: cross mode, the channel the turn was in ('' none; SPEC §22: a private chat's turns are seen only there)
   */
  | { type: 'turn'; at: number; turn: number; reason: string; merged?: number; waitedMs?: number; late?: boolean; chat?: string }
  /** A wait declaration armed when its turn ended (SPEC §4.3, §15: durable); a later turn entry clears it. */
  | { type: 'wait'; at: number; seconds?: number; messages?: number }
  /** A wake the attention policies turned down after waiting (the judge said no or did not answer); not shown to the model. */
  | { type: 'declined'; at: number; reason: string; why: string }
  /** Media a tool returned or a person sent (SPEC §7); items are addressed as `${id}:${index}`. */
  | { type: 'attachments'; at: number; turn: number; id: string; source: 'tool' | 'fact'; tool?: string; items: AttachmentItem[] }
  /** `once` attachments shown in a request whose response was persisted. */
  | { type: 'shown'; at: number; ids: string[] }
  /** The platform says the message `id` was recalled (SPEC §19); the fact stays stored, the model no longer reads it. */
  | { type: 'recalled'; at: number; id: string }
  /** The bot took back its own message `id` (SPEC §23); the step stays stored, the model reads "[you unsent this]" there. */
  | { type: 'unsent'; at: number; id: string }
  /** What a voice message said (SPEC §20): the fact with the voice `url` reads it from then on (history/amendments.ts). */
  | TranscriptEntry
  /** A model call that failed, in the server's own words (SPEC §11); never shown to the model. */
  | { type: 'failure'; at: number; turn: number; model: string; error: string; latencyMs?: number }
