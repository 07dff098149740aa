// What a conversation needs of its history's storage (SPEC §2, §10; issue 15). Two backends keep
// the same promises: `HistoryStore` (a JSONL file per conversation, storage: files) and
// `TableHistoryStore` (rows of a database table, storage: database). Entries are stored in the
// order they were appended; entries that could not be written are kept in memory and written
// again; a stored entry that is not valid is skipped with a warning; nothing is ever deleted.
import type { Entry } from './entries'

export interface HistoryTail {
  entries: Entry[]
  /** older entries exist in storage */
  more: boolean
}

export interface HistoryBackend {
  /** Names this history in log lines and in `reset`'s answer: a file, or a table and its conversation. */
  readonly where: string
  /** Entries appended but not yet written (a full disk, an unreachable database). */
  readonly unwritten: number
  /** The last write failed: entries wait in memory until storage takes them again. */
  readonly stuck: boolean
  /** Bytes the history takes in storage, when storage can tell cheaply (the console page). */
  storedBytes(): Promise<number | undefined>
  /** Queues entries; they are written in append order. Rejects when this write failed (the entries stay queued). */
  append(entries: Entry[]): Promise<void>
  /** The last `maxEntries` stored entries. */
  loadTail(maxEntries: number): Promise<HistoryTail>
  /** The whole stored history (tests, migration). */
  load(): Promise<Entry[]>
  /** Moves the history aside (`why` names it: reset, migrated); undefined when there was none. */
  reset(why?: string): Promise<string | undefined>
  /** Resolves when every write queued so far has been tried. */
  idle(): Promise<void>
  /** Resolves when everything appended so far was written (or could not be), releasing what the store holds. */
  flushed(): Promise<void>
}
