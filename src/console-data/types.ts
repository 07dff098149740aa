// What the console page (SPEC §12) receives. Plain JSON, shared with the client (client/*.vue):
// everything here is shaped from the runtime's own records, never a second copy of them.

export interface RuntimeSummary {
  profile: string
  bot: string
  /** the bot is online */
  online: boolean
  /** the runtime is running; else it is listed from its home or stored histories, and nothing starts it but a message or "wake now" */
  running: boolean
  /** conversations loaded in memory (0 when not running) */
  conversations: number
  /** prompt + completion tokens of every model today, and the requests behind them */
  tokensToday: number
  requestsToday: number
  errorsToday: number
  /** today, then the days before it that had usage (7 days at most), newest first, over all models (SPEC §16) */
  days: DayUsage[]
  /** the newest entry of any loaded conversation (ms), if any; for a runtime not running, its newest history file's time */
  lastActivity?: number
  /** files under `<home>/local/memory/` (SPEC §13), when there are any */
  memory: { name: string; size: number }[]
  /** inbound media kept in its home and attachment.maxAssetBytes (0: no bound), SPEC §22 */
  assets?: { bytes: number; limit: number }
  /** the profile did not start: why, as the log says it (field path and problem); bot is '' when it has no home either */
  notStarted?: string[]
  /** what its platform allows and what is on (SPEC §19), with why a feature is off */
  capabilities?: CapabilityLine
}

/** One bot's platform features (SPEC §19 "Capabilities per bot"). */
export interface CapabilityLine {
  /** the platform as the owner knows it ("OneBot (NapCat, Lagrange)") */
  label: string
  features: { name: string; on: boolean; why?: string }[]
}

/** Tokens and what they cost (SPEC §16). */
export interface Spend {
  promptTokens: number
  /** prompt tokens the server served from its prompt cache */
  cachedTokens: number
  /** prompt tokens written to the cache (Anthropic), when any were */
  cacheWriteTokens?: number
  completionTokens: number
  /** in the owner's currency; absent when no model behind it has a price (unknown is not free) */
  cost?: number
}

/** One day (UTC, `YYYY-MM-DD`) of a runtime, from its usage book and daily files. */
export interface DayUsage extends Spend {
  day: string
  requests: number
  errors: number
}

/** What the steps the page can see of a conversation took: the newest entries in memory, or read from storage. */
export interface ConversationUsage extends Spend {
  /** steps counted (those that recorded usage) */
  steps: number
  /** the first of them (ms) */
  since?: number
}

export interface WaitSummary {
  seconds?: number
  messages?: number
  armedAt: number
  factsSeen: number
}

export interface ConversationSummary {
  key: string
  name?: string
  mode: 'channel' | 'cross'
  busy: boolean
  /** not loaded in memory: only in storage ('files': on disk, 'database': stored), read from there when shown */
  stored?: 'files' | 'database'
  /** turns and entries in memory (loaded conversations) */
  turns?: number
  entries?: number
  /** the history's size in bytes; undefined when the storage cannot tell cheaply (a database) */
  bytes?: number
  /** the history file's last change (ms), for stored conversations on files */
  modifiedAt?: number
  last?: { at: number; user: string; text: string }
  wait?: WaitSummary
  /** the mind may not speak there until then: the platform's ban or the owner's pause (SPEC §19) */
  muted?: { until: number; by: 'platform' | 'owner' }
  /** the next idle wake, or why there is none, when initiative is on (SPEC §21) */
  idle?: { at: number } | { none: string; why?: string; n?: number }
  /** loaded conversations: over the same entries the transcript shows */
  usage?: ConversationUsage
}

/** A voice message (SPEC §20): its asset (played through `kotodama/audio`), its length, its words or why it has none. */
export interface VoiceItem {
  url: string
  seconds?: number
  text?: string
  why?: string
}

export interface FactItem {
  kind: 'fact'
  at: number
  id: string
  user: { id: string; name: string }
  channel: string
  /** the message as text; media are listed in `images` and stand as `[image]` here */
  text: string
  images: string[]
  /** its voice lines, as the text holds them (`line`: the line's exact text, which the page shows as a player) */
  voices: (VoiceItem & { line: string })[]
  /** why it woke the mind, when it did */
  wake?: string
  /** why it did not wake the mind although it would have (SPEC §15): stale, bot, perUser, muted */
  held?: string
  /** a platform notice (SPEC §19): the text says what happened ("poked you", "joined the group") */
  notice?: string
  /** reactions people added to message `to` (SPEC §23): names by the name rule, `others` more people, the emoji with counts */
  reaction?: { to: string; by: string[]; others: number; emoji: string }
  /** its author recalled it (the mind reads "[recalled]") */
  recalled?: boolean
  /** fetched from the platform's history after downtime */
  pulled?: boolean
}

export interface TurnItem {
  kind: 'turn'
  at: number
  turn: number
  reason: string
  steps: number
  tokens: number
  /** what its steps cost, when their models have a price */
  cost?: number
  /**
   * how it ended: `running` while it runs; `error`: a model call failed (`error` says why);
   * `failed`: a send failed (`error` says why); `none`: no step and no failure was recorded
   * (stopped, no model, or a history from before failures were kept)
   */
  end: 'running' | 'finish' | 'wait' | 'send' | 'text' | 'failed' | 'error' | 'steps' | 'none'
  /** the server's words, when the turn ended by a failed model call */
  error?: string
  /** waking messages it answers, when more than one (a burst, a cooldown; SPEC §15) */
  merged?: number
  /** how long it waited for a burst to end or a cooldown to pass */
  waitedMs?: number
  /** a wait window that passed while kotodama was not running */
  late?: boolean
  /** searched tools its steps loaded (SPEC §18), in order */
  loaded?: string[]
}

export interface CallItem {
  id: string
  tool: string
  input: string
  /** the result exactly as the model read it (text, or JSON) */
  result: string
  error: boolean
  /** the call still runs (its step is live): no result yet */
  running?: boolean
  /** send_message: what was sent, and whether it was delivered; `sending`: still typing, `ids` delivered so far */
  send?: {
    messages: string[]; delivered: boolean; ids: number; error?: string; sending?: boolean; voices?: SentVoice[]
    /** the acts of its messages (SPEC §23); `messages` then hold each message's words without them ('' : acts only) */
    acts?: SentAct[]
    /** indexes of `messages` the bot took back since */
    unsent?: number[]
  }
}

/** An act the mind wrote in message `message` of a send (SPEC §23); `dropped`: not made, and why. */
export type SentAct = { message: number; dropped?: { code: string; message: string } } & (
  | { act: 'react'; emoji: string; to: string }
  | { act: 'poke'; id: string; name?: string }
  | { act: 'unsend'; id: string }
)

/** A voice the mind sent: the words of its `<voice>`, in the message `message` (an index of `messages`; -1: not known). */
export interface SentVoice extends VoiceItem {
  message: number
}

export interface StepItem {
  kind: 'step'
  at: number
  turn: number
  model?: string
  latencyMs?: number
  promptTokens?: number
  completionTokens?: number
  reasoningTokens?: number
  cachedTokens?: number
  cacheWriteTokens?: number
  /** what this step cost, when its model has a price */
  cost?: number
  /** its calls still run (the model has answered; sends are being typed) */
  live?: boolean
  /** the assistant's own text and reasoning in this step */
  text?: string
  reasoning?: string
  calls: CallItem[]
  attachments: { url: string; mediaType: string }[]
  /** searched tools this step loaded: found by tool_search, or called by name (SPEC §18) */
  loaded?: string[]
}

export interface NoteItem {
  kind: 'note'
  at: number
  note: 'wake' | 'reminder' | 'info'
  text: string
}

/** A model call that failed (SPEC §11), in the server's own words. */
export interface FailureItem {
  kind: 'failure'
  at: number
  turn: number
  model: string
  error: string
  latencyMs?: number
}

/** A wake the judge turned down (SPEC §15). */
export interface DeclinedItem {
  kind: 'declined'
  at: number
  reason: string
  why: string
}

/** A wait declared at the end of a turn (SPEC §4.3; stored so a restart keeps it, §15). */
export interface WaitItem {
  kind: 'wait'
  at: number
  seconds?: number
  messages?: number
}

export type TranscriptItem = FactItem | TurnItem | StepItem | NoteItem | FailureItem | DeclinedItem | WaitItem

export interface Transcript {
  key: string
  busy: boolean
  /** older entries exist than the ones shown */
  truncated: boolean
  items: TranscriptItem[]
  /** what the steps shown took */
  usage: ConversationUsage
}

/** One MCP server (SPEC §14), as `ctx.kotodama.mcpStatus()` tells it. */
export interface McpSummary {
  id: string
  state: 'starting' | 'ready' | 'retrying' | 'stopped'
  tools: number
  /** why it is down (retrying) */
  error?: string
  /** ms until the next start attempt, when the status was read (retrying) */
  retryInMs?: number
  pid?: number
}
