// Where the budget book keeps what was spent (SPEC §22): one decision, made once per plugin start.
import { join } from 'node:path'
import type { Context } from 'koishi'
import type { Config } from '../config/types'
import { FileBudgetStore } from '../budgets/file-store'
import type { BudgetStore } from '../budgets/store'
import type { Logger } from '../util/logger'

export function budgetStoreOf(_ctx: Context, _config: Config, dataDir: string, log: Logger): BudgetStore {
  return new FileBudgetStore(join(dataDir, 'budgets'), log)
}
