// The checks of plugin-level `budgets` (SPEC §22): each field on its own, so one wrong value costs
// only that field (reported with its path, the default used). A limit must be a number ≥ 0; the
// fallback must name a configured model, or past a budget there would be nothing to call.
import { knownTimeZone } from '../util/day'
import { DEFAULT_BUDGETS } from './defaults'
import type { BudgetExceeded, BudgetsConfig } from './types'

export interface BudgetsProblem {
  path: string
  message: string
}

const LIMITS = ['day', 'perProfileDay', 'perChannelDay', 'perUserDay'] as const
const EXCEEDED: readonly BudgetExceeded[] = ['fallback', 'silent', 'reply']

const shown = (v: unknown) => JSON.stringify(v)?.slice(0, 60)

/** `modelIds`: the ids of the configured models (budgets.fallback must be one of them). */
export function checkedBudgets(
  given: Partial<BudgetsConfig> | undefined, problems: BudgetsProblem[], modelIds: ReadonlySet<string> = new Set(),
): BudgetsConfig {
  const out: BudgetsConfig = { ...DEFAULT_BUDGETS }
  const bad = (field: keyof BudgetsConfig, message: string) => problems.push({ path: `budgets.${field}`, message })
  for (const k of LIMITS) {
    const v: unknown = given?.[k]
    if (v === undefined) continue
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) out[k] = v
    else bad(k, `${shown(v)} is not a number ≥ 0 (0: no limit); using ${DEFAULT_BUDGETS[k]}`)
  }
  const exceeded: unknown = given?.onExceeded
  if (exceeded !== undefined) {
    if (EXCEEDED.includes(exceeded as BudgetExceeded)) out.onExceeded = exceeded as BudgetExceeded
    else bad('onExceeded', `${shown(exceeded)} is not one of ${EXCEEDED.join(', ')}; using ${DEFAULT_BUDGETS.onExceeded}`)
  }
  const fallback: unknown = given?.fallback
  if (fallback !== undefined && fallback !== '') {
    if (typeof fallback === 'string' && modelIds.has(fallback)) out.fallback = fallback
    else bad('fallback', `${shown(fallback)} names no configured model; past a budget the turn stops silently`)
  }
  const reply: unknown = given?.reply
  if (reply !== undefined) {
    if (typeof reply === 'string') out.reply = reply
    else bad('reply', `${shown(reply)} is not text; nothing is sent past a budget`)
  }
  const timezone: unknown = given?.timezone
  if (timezone !== undefined) {
    if (typeof timezone === 'string' && knownTimeZone(timezone)) out.timezone = timezone
    else bad('timezone', `${shown(timezone)} is not a time zone this Node.js knows (an IANA name like Asia/Shanghai, or empty); using the host's`)
  }
  return out
}
