// Where a runtime's conversation histories live: JSONL files in its home (storage: files) or rows
// of a database table (storage: database). Each side lists its conversations and opens one; the
// runtime opens its configured side, a migration opens both (migrate-history.ts), and the console
// page reads a side without a runtime (a runtime that is not running, a conversation not loaded).
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Clock } from '../util/clock'
import type { DescriptorBudget } from '../util/descriptor-budget'
import { isMissing } from '../resources/fs-error'
import { fromSafeName, safeName } from '../util/safe-name'
import type { HistoryBackend, HistoryTail } from './backend'
import { scanJsonl, scanTable, type EntryBatch } from './scan'
import { HistoryStore } from './file-store'
import type { HistoryTable } from './table'
import { TableHistoryStore } from './table-store'
import type { Logger } from '../util/logger'

export type StorageKind = 'files' | 'database'

/** A stored conversation as its storage describes it without reading it. */
export interface StoredHistory {
  key: string
  /** the file's size (files only) */
  bytes?: number
  /** the file's last change, ms (files only) */
  modifiedAt?: number
}

export interface HistorySide {
  readonly kind: StorageKind
  /** keys of the conversations with a live history (not moved aside) */
  keys(): Promise<string[]>
  /** the same conversations, with size and time where the storage tells them cheaply */
  stored(): Promise<StoredHistory[]>
  open(key: string): HistoryBackend
  /** The newest entries of a history, read without changing anything in storage. */
  peek(key: string, maxEntries: number): Promise<HistoryTail>
  /** The whole history, oldest first, in batches (recall rebuilds its index); nothing is changed. */
  scan(key: string, fn: EntryBatch): Promise<void>
}

/** `<home>/conversations/<safeName(key)>.jsonl`; a file moved aside has a second dot (`k.reset-<ms>.jsonl`). */
export function filesSide(dir: string, logger: Logger, clock?: Clock, budget?: DescriptorBudget): HistorySide {
  const path = (key: string) => join(dir, `${safeName(key)}.jsonl`)
  // a file moved aside between readdir and stat is left out
  const described = (key: string) => stat(path(key)).then(
    (s): StoredHistory => ({ key, bytes: s.size, modifiedAt: s.mtimeMs }),
    (): undefined => undefined,
  )
  const keys = async () => {
    let names: string[]
    try {
      names = await readdir(dir)
    } catch (e) {
      if (isMissing(e)) return []
      throw e
    }
    return names.filter(n => /^[^.]+\.jsonl$/.test(n)).map(n => fromSafeName(n.slice(0, -'.jsonl'.length))).sort()
  }
  return {
    kind: 'files',
    keys,
    async stored() {
      const found = await Promise.all((await keys()).map(described))
      return found.filter(Boolean)
    },
    open: key => new HistoryStore(path(key), logger, clock, budget),
    peek: (key, max) => new HistoryStore(path(key), logger, clock, budget, true).loadTail(max),
    scan: (key, fn) => scanJsonl(path(key), fn),
  }
}

export function tableSide(table: HistoryTable, profile: string, bot: string, logger: Logger, clock?: Clock): HistorySide {
  const keys = async () => (await table.conversations(profile, bot)).sort()
  const open = (conversation: string) => new TableHistoryStore(table, { profile, bot, conversation }, logger, clock)
  return {
    kind: 'database',
    keys,
    stored: async () => (await keys()).map(key => ({ key })),
    open,
    // reading rows changes nothing; the store only writes on append and reset
    peek: (key, max) => open(key).loadTail(max),
    scan: (key, fn) => scanTable(table, { profile, bot, conversation: key }, fn),
  }
}

export interface HistorySideOptions {
  home: string
  profile: string
  bot: string
  logger: Logger
  clock?: Clock
  budget?: DescriptorBudget
  table?: HistoryTable
}

/** The side a runtime of (profile, bot) uses: the table when it is on the database, else its home's files. */
export function historySide(o: HistorySideOptions): HistorySide {
  if (o.table) return tableSide(o.table, o.profile, o.bot, o.logger, o.clock)
  return filesSide(join(o.home, 'conversations'), o.logger, o.clock, o.budget)
}
