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
  /** the newest entry of any loaded conversation (ms), if any; for a runtime not running, its newest history file's time */
  lastActivity?: number
  /** files under `<home>/local/memory/` (SPEC §13), when there are any */
  memory: { name: string; size: number }[]
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
  /** why it woke the mind, when it did */
  wake?: string
}

export interface TurnItem {
  kind: 'turn'
  at: number
  turn: number
  reason: string
  steps: number
  tokens: number
  /** how it ended: `running` while it runs */
  end: 'running' | 'finish' | 'wait' | 'send' | 'text' | 'failed' | 'steps'
}

export interface CallItem {
  id: string
  tool: string
  input: string
  /** the result exactly as the model read it (text, or JSON) */
  result: string
  error: boolean
  /** send_message: what was sent, and whether it was delivered */
  send?: { messages: string[]; delivered: boolean; ids: number; error?: string }
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
  /** the assistant's own text and reasoning in this step */
  text?: string
  reasoning?: string
  calls: CallItem[]
  attachments: { url: string; mediaType: string }[]
}

export interface NoteItem {
  kind: 'note'
  at: number
  note: 'wake' | 'reminder' | 'info'
  text: string
}

export type TranscriptItem = FactItem | TurnItem | StepItem | NoteItem

export interface Transcript {
  key: string
  busy: boolean
  /** older entries exist than the ones shown */
  truncated: boolean
  items: TranscriptItem[]
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
