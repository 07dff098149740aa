// Today's spending against each budget (SPEC §22): what kotodama.status prints and the console's
// budgets view shows, from the book's rows and the configured limits.
import type { BudgetName } from '../contract/budget'
import type { BudgetScope, SpentRow } from './store'

export type { BudgetName }

export const SCOPE_OF: Record<BudgetName, BudgetScope> = {
  day: 'all', perProfileDay: 'profile', perChannelDay: 'channel', perUserDay: 'user',
}

export interface SpentKey {
  key: string
  label?: string
  spent: number
}

export interface BudgetLine {
  name: BudgetName
  /** 0: no limit */
  limit: number
  /** the most any one key of this scope spent today (for `day`, the total) */
  spent: number
  /** the keys that spent most, most first */
  top: SpentKey[]
}

export interface BudgetReport {
  day: string
  lines: BudgetLine[]
}

export type BudgetLimits = Record<BudgetName, number>

const TOP = 5

/** The report of one day's rows; rows of one key are summed. */
export function reportOf(day: string, rows: readonly SpentRow[], limits: BudgetLimits, top = TOP): BudgetReport {
  const byScope = new Map<BudgetScope, Map<string, SpentKey>>()
  for (const r of rows) {
    if (r.day !== day) continue
    let keys = byScope.get(r.scope)
    if (!keys) byScope.set(r.scope, keys = new Map())
    const k = keys.get(r.key) ?? { key: r.key, spent: 0 }
    k.spent += r.spent
    if (r.label) k.label = r.label
    keys.set(r.key, k)
  }
  const lines = (Object.keys(SCOPE_OF) as BudgetName[]).map((name): BudgetLine => {
    const keys = [...(byScope.get(SCOPE_OF[name])?.values() ?? [])].sort((a, b) => b.spent - a.spent)
    return { name, limit: limits[name], spent: keys[0]?.spent ?? 0, top: keys.slice(0, top) }
  })
  return { day, lines }
}
