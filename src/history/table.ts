// The port a database-backed history needs (storage: database). The core declares it; the Koishi
// edge implements it on minato (`src/koishi/history-table.ts`), tests also on fakes that fail.
// Rows are the entries of one conversation, numbered by `seq` in append order; a row set aside
// (reset, migration) keeps its place and number but is no longer loaded.

/** Which conversation: profile id, bot as `platform:selfId`, conversation key. */
export interface ConversationRef {
  profile: string
  bot: string
  conversation: string
}

export interface HistoryRow {
  seq: number
  /** the entry's time (ms), for people reading the table */
  at: number
  /** the entry as JSON text */
  entry: string
}

export interface HistoryTable {
  /** the table's name, for log lines */
  readonly name: string
  /** Writes rows of one conversation, all or none; a row written again with the same seq replaces itself. */
  write(ref: ConversationRef, rows: HistoryRow[]): Promise<void>
  /** The newest live rows (not set aside), newest first; all of them without a limit. */
  newest(ref: ConversationRef, limit?: number): Promise<HistoryRow[]>
  /** Live rows after `seq`, oldest first, at most `limit` (recall reads a whole history in pages); without it `newest`. */
  after?(ref: ConversationRef, seq: number, limit: number): Promise<HistoryRow[]>
  /** The highest seq of the conversation, rows set aside included; 0 for none. */
  lastSeq(ref: ConversationRef): Promise<number>
  /** Sets the live rows aside, marked with `at`; returns how many there were. */
  setAside(ref: ConversationRef, at: number): Promise<number>
  /** Conversation keys of (profile, bot) that have live rows. */
  conversations(profile: string, bot: string): Promise<string[]>
  /** Every (profile, bot) with live rows: the runtimes the console lists before they start. */
  runtimes(): Promise<{ profile: string; bot: string }[]>
}
