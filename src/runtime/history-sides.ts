// Where a runtime's conversation histories live: JSONL files in its home (storage: files) or rows
// of a database table (storage: database). Each side lists its conversations and opens one; the
// runtime opens its configured side, a migration opens both (migrate-history.ts).
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Clock } from '../util/clock'
import type { DescriptorBudget } from '../util/descriptor-budget'
import { isMissing } from '../resources/fs-error'
import { safeName } from '../util/safe-name'
import type { HistoryBackend } from './history-backend'
import { HistoryStore } from './history-store'
import type { HistoryTable } from './history-table'
import { TableHistoryStore } from './table-history-store'
import type { Logger } from './types'

export type StorageKind = 'files' | 'database'

export interface HistorySide {
  readonly kind: StorageKind
  /** keys of the conversations with a live history (not moved aside) */
  keys(): Promise<string[]>
  open(key: string): HistoryBackend
}

/** `<home>/conversations/<safeName(key)>.jsonl`; a file moved aside has a second dot (`k.reset-<ms>.jsonl`). */
export function filesSide(dir: string, logger: Logger, clock?: Clock, budget?: DescriptorBudget): HistorySide {
  return {
    kind: 'files',
    async keys() {
      let names: string[]
      try {
        names = await readdir(dir)
      } catch (e) {
        if (isMissing(e)) return []
        throw e
      }
      return names.filter(n => /^[^.]+\.jsonl$/.test(n)).map(n => fromSafeName(n.slice(0, -'.jsonl'.length))).sort()
    },
    open: key => new HistoryStore(join(dir, `${safeName(key)}.jsonl`), logger, clock, budget),
  }
}

export function tableSide(table: HistoryTable, profile: string, bot: string, logger: Logger, clock?: Clock): HistorySide {
  return {
    kind: 'database',
    keys: async () => (await table.conversations(profile, bot)).sort(),
    open: conversation => new TableHistoryStore(table, { profile, bot, conversation }, logger, clock),
  }
}

/** The inverse of `safeName` (%XX escapes of UTF-8 bytes; `%00` is the empty name). */
function fromSafeName(name: string): string {
  if (name === '%00') return ''
  const bytes: number[] = []
  for (let i = 0; i < name.length; i++) {
    if (name[i] === '%') {
      bytes.push(parseInt(name.slice(i + 1, i + 3), 16))
      i += 2
    } else bytes.push(name.charCodeAt(i))
  }
  return Buffer.from(bytes).toString('utf8')
}
