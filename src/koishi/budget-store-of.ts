// Where the budget book keeps what was spent (SPEC §22): one decision, made once per plugin start.
// With storage: database the table in Koishi's database, so instances sharing it share the budgets.
import { join } from 'node:path'
import type { Context } from 'koishi'
import type { Config } from '../config/types'
import { FileBudgetStore } from '../budgets/file-store'
import type { BudgetStore } from '../budgets/store'
import type { Logger } from '../util/logger'
import { koishiBudgetTable } from './budget-table'

export function budgetStoreOf(ctx: Context, config: Config, dataDir: string, log: Logger): BudgetStore {
  return config.storage === 'database' ? koishiBudgetTable(ctx) : new FileBudgetStore(join(dataDir, 'budgets'), log)
}
