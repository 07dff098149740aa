// The checks of plugin-level `budgets` (SPEC §22): for now its `timezone`, the zone of kotodama's
// one day. A zone Node.js does not know is reported with its path and the host's zone is used.
import { knownTimeZone } from '../util/day'
import { DEFAULT_BUDGETS } from './defaults'
import type { BudgetsConfig } from './types'

export interface BudgetsProblem {
  path: string
  message: string
}

export function checkedBudgets(given: Partial<BudgetsConfig> | undefined, problems: BudgetsProblem[]): BudgetsConfig {
  const timezone: unknown = given?.timezone ?? DEFAULT_BUDGETS.timezone
  if (typeof timezone === 'string' && knownTimeZone(timezone)) return { timezone }
  const shown = JSON.stringify(timezone)?.slice(0, 60)
  problems.push({
    path: 'budgets.timezone',
    message: `${shown} is not a time zone this Node.js knows (an IANA name like Asia/Shanghai, or empty); using the host's`,
  })
  return { ...DEFAULT_BUDGETS }
}
