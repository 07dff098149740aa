// A capability a runtime is composed of (memory, recall, and next stickers, voice, people): what
// it offers the runtime, declared here so the runtime loops over its parts instead of naming each.
// Every member is optional; none may throw out of the runtime's loops (the runtime logs and goes on).
import type { Tool } from '../contract/tool'
import type { Entry } from '../history/entries'
import type { ReadScope, SchemeHandler } from '../resources/types'
import type { OutboundServer } from '../tools/outbound'

/** A part's share of the system prompt: its paragraph of the protocol, and a section after the protocol. */
export interface PromptShare {
  /** its paragraph of the protocol (prose from a .md beside the part), after the core protocol's, in part order */
  protocol?: string
  /** text after the protocol, in part order; it must change only when the part's own state does (SPEC §16) */
  section?: string
}

/** A document a part lets `search` find (SPEC §17): recall ranks it with its own analyzer, beside notes and messages. */
export interface SearchableDoc {
  /** what the hit's url is: read opens it */
  url: string
  /** the words it is found by */
  text: string
  /** the hit's text */
  shown: string
  /** ms since the epoch: the hit's `at` */
  at: number
}

/** A part's documents for search; `version` changes whenever the documents do (recall indexes them again then). */
export interface Searchable {
  version: string
  docs: readonly SearchableDoc[]
}

/** What a part tells of a conversation in kotodama.status and the console: a pause or ban (SPEC §19), the next idle wake (§21). */
export interface ConversationNotes {
  muted?: { until: number; by: 'platform' | 'owner' }
  idle?: { at: number } | { none: string; why?: string; n?: number }
}

export interface RuntimePart {
  /** for the log */
  readonly name: string
  /** the runtime holds its home: load files, arm timers (never in `create`: a reload's old instance may still be writing) */
  start?(): Promise<void>
  /** URL schemes it serves, registered when the runtime starts */
  schemes?(): SchemeHandler[]
  /** how it serves the send_message elements its plugin declares (PartPlugin.outbound): `<sticker>`, `<voice>` */
  outbound?(): readonly OutboundServer[]
  /** built-in tools it adds to every conversation's catalog, after kotodama's own */
  tools?(): Iterable<[string, Tool]>
  /**
   * its share of the system prompt; read on every request, so it answers from memory. `scope`: the
   * conversation asking and its chat (a private chat's files show only there, SPEC §22)
   */
  prompt?(scope: ReadScope): PromptShare | undefined
  /** documents search finds (stickers by their labels); read on every search, so it answers from memory */
  searchable?(): Searchable | undefined
  /** runs before each turn of any conversation (e.g. looking for the owner's edits, waiting for a transcript) */
  beforeTurn?(conversation: string): Promise<void>
  /**
   * its lines of the turn's opening note, after beforeTurn (the people present, SPEC §21): the
   * newest message holds them, never the system prompt, so the prompt cache holds (SPEC §16)
   */
  opening?(conversation: string): string | undefined | Promise<string | undefined>
  /** a conversation appended entries (as they are appended: keep this cheap, defer the work) */
  appended?(conversation: string, entries: readonly Entry[]): void
  /** whether the mind may not speak in `channel` now (a ban, the owner's pause: SPEC §19); answered from memory */
  muted?(channel: string): boolean
  /** what it tells of conversation `key` (status, the console); answered from memory */
  status?(conversation: string): ConversationNotes | undefined
  /** resolves when what it was handed so far is done with (Runtime.written: tests, benchmarks) */
  written?(): Promise<void>
  /** a conversation was unloaded from memory (the loaded budget, a reset): free what is kept for it */
  unloaded?(conversation: string): void
  /** a conversation's history was set aside (kotodama.reset) */
  reset?(conversation: string): Promise<void>
  /** the runtime stops, before its conversations do: finish writing, release what it holds; the scope's ports refuse from now on */
  stop?(): Promise<void>
}
