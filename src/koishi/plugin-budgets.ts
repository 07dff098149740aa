// The plugin's budget book as the service holds it (SPEC §22): one for all runtimes, on the store
// `storage` picks; today's spending is read before the first request is gated, so a restart keeps it.
import type { Context } from 'koishi'
import { BudgetBook } from '../budgets/book'
import type { BudgetReport } from '../budgets/report'
import type { BudgetGate } from '../contract/budget'
import type { BudgetsConfig, Config } from '../config/types'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import { budgetStoreOf } from './budget-store-of'

export class PluginBudgets {
  private book: BudgetBook
  private log: Logger
  private loading?: Promise<void>
  /** today's spending is read (or could not be: then counted from 0, and said) */
  loaded = false

  constructor(ctx: Context, config: Config, o: { budgets: BudgetsConfig; dataDir: string; clock: Clock; log: Logger }) {
    this.book = new BudgetBook({ store: budgetStoreOf(ctx, config, o.dataDir, o.log), clock: o.clock, logger: o.log, config: o.budgets })
    this.log = o.log
  }

  /** Resolves once today's spending is read. */
  load(): Promise<void> {
    return this.loading ??= this.book.start()
      .catch(e => this.log.warn('budgets: today\'s spending could not be loaded: %s', e?.message ?? e))
      .finally(() => { this.loaded = true })
  }

  /** Today's budgets: each limit, what was spent, who spent most (kotodama.status, the console). */
  async report(): Promise<BudgetReport> {
    await this.load()
    // read again: another instance sharing the database, or a day file the console shows before any runtime ran
    await this.book.refresh()
    return this.book.report()
  }

  gateFor(profile: string, bot: string): BudgetGate {
    return this.book.gateFor(profile, bot)
  }

  /** What is buffered is written. */
  stop(): Promise<void> {
    return this.book.stop()
  }
}
