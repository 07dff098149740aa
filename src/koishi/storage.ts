// Where each runtime keeps its histories (docs/storage.md): the configured `storage`, or where
// kotodama.migrate moved it; Koishi's database service while it is there; the runtimes paused
// while a migration moves their history.
import { join } from 'node:path'
import type { Context } from 'koishi'
import type { Config, ProfileConfig } from '../config/types'
import type { HistoryTable } from '../history/table'
import { filesSide, historySide, tableSide, type HistorySide, type StorageKind } from '../history/sides'
import { migrateHistory, type MigrationResult } from '../history/migrate'
import type { Clock } from '../util/clock'
import type { DescriptorBudget } from '../util/descriptor-budget'
import type { Logger } from '../util/logger'
import { koishiHistoryTable } from './history-table'
import { KoishiRecords } from './part-records'
import type { PartRecords } from '../part/records'
import { runtimeKey } from '../claims/bot-id'

/** Why kotodama.migrate did not start; the command words each reason. */
export class MigrateRefused extends Error {
  name = 'MigrateRefused'
  constructor(readonly reason: 'no-database' | 'busy') {
    super(reason === 'busy' ? 'a turn is running, or a migration of this runtime is' : 'Koishi has no database service')
  }
}

/** What a migration needs of the runtime it moves. */
export interface MovedRuntime {
  /** the running runtime, if any, and whether a turn of it runs */
  busy(): Promise<boolean>
  /** stops it and forgets it, so its next message starts it on the new storage */
  stop(): Promise<void>
}

const keyOf = (profile: ProfileConfig, bot: string) => runtimeKey(profile.id, bot)

export class HistoryStorage {
  /** the history table, while Koishi's database service is there */
  table?: HistoryTable
  /** the parts' tables (schedules), on the same service */
  private records?: KoishiRecords
  /** runtimes a migration moved to the other storage, until the plugin restarts */
  private moved = new Map<string, StorageKind>()
  /** runtimes being migrated: their messages wait */
  private paused = new Map<string, Promise<void>>()
  private missing = false

  /** `gone`: the database service went away (its runtimes stop) */
  constructor(ctx: Context, private o: { config: Config; log: Logger; clock(): Clock; descriptors: DescriptorBudget; gone(): void }) {
    ctx.inject(['database'], sub => {
      this.table = koishiHistoryTable(sub)
      this.records = new KoishiRecords(sub)
      this.missing = false
      sub.on('dispose', () => {
        this.table = undefined
        this.records = undefined
        o.gone()
      })
    })
  }

  /** The config's storage of (profile, bot), or where a migration moved it. */
  of(profile: ProfileConfig, bot: string): StorageKind {
    return this.moved.get(keyOf(profile, bot)) ?? this.o.config.storage ?? 'files'
  }

  /** storage: database without a database service: nothing starts (and nothing is written elsewhere); said once. */
  unavailable(storage: StorageKind): boolean {
    if (this.table || storage !== 'database') return false
    if (!this.missing) {
      this.o.log.error('storage is "database", but Koishi has no database service; '
        + 'profiles do not start until one is loaded (e.g. database-sqlite, database-mysql)')
    }
    this.missing = true
    return true
  }

  /** The table (profile, bot) writes to, or undefined for files. */
  tableOf(profile: ProfileConfig, bot: string): HistoryTable | undefined {
    return this.of(profile, bot) === 'database' ? this.table : undefined
  }

  /**
   * The parts' tables of (profile, bot) when it keeps its histories on the database, else undefined
   * (its parts keep files in the home). A migration moves histories only: a part's rows or files
   * stay where they were written (docs/schedules.md "Storage").
   */
  recordsOf(profile: ProfileConfig, bot: string): PartRecords | undefined {
    return this.of(profile, bot) === 'database' ? this.records?.of(keyOf(profile, bot)) : undefined
  }

  /** Resolves when a migration of (profile, bot) has finished; undefined when none runs. */
  pause(profile: ProfileConfig, bot: string): Promise<void> | undefined {
    return this.paused.get(keyOf(profile, bot))
  }

  /** The table to list stored runtimes from, when any runtime may be on it. */
  listedTable(): HistoryTable | undefined {
    return this.table && (this.o.config.storage === 'database' || [...this.moved.values()].includes('database')) ? this.table : undefined
  }

  /** The histories of (profile, bot) as its runtime would open them; none while its database is missing. */
  side(profile: ProfileConfig, bot: string, home: string): HistorySide | undefined {
    const onTable = this.of(profile, bot) === 'database'
    if (onTable && !this.table) return undefined
    const table = onTable ? this.table : undefined
    return historySide({ home, profile: profile.id, bot, logger: this.o.log, clock: this.o.clock(), budget: this.o.descriptors, table })
  }

  /**
   * Moves the histories of (profile, bot) to `to` (kotodama.migrate): refused while a turn runs;
   * the runtime stops, its messages wait, and it starts again on the new storage.
   */
  async migrate(profile: ProfileConfig, bot: string, to: StorageKind, home: string, runtime: MovedRuntime): Promise<MigrationResult> {
    const key = keyOf(profile, bot)
    const table = this.table
    if (!table) throw new MigrateRefused('no-database')
    if (this.paused.has(key) || await runtime.busy()) throw new MigrateRefused('busy')
    let release: () => void
    this.paused.set(key, new Promise<void>(r => release = r))
    try {
      await runtime.stop()
      const { log } = this.o
      const files = filesSide(join(home, 'conversations'), log, this.o.clock(), this.o.descriptors)
      const database = tableSide(table, profile.id, bot, log, this.o.clock())
      const result = to === 'database' ? await migrateHistory(files, database) : await migrateHistory(database, files)
      this.moved.set(key, to)
      return result
    } finally {
      this.paused.delete(key)
      release()
    }
  }
}
