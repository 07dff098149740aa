// Today's budget report for the console's budgets view (SPEC §22): today's rows as the configured
// store holds them (`<dataDir>/budgets/<day>.json` with storage: files, the table with storage:
// database) against config.budgets' limits. One function, so it can become the live book's
// `report()` once the book runs in the service.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Context } from 'koishi'
import type { BudgetsConfig, Storage } from '../config/types'
import { reportOf, type BudgetReport } from '../budgets/report'
import type { BudgetStore, SpentRow } from '../budgets/store'
import type { Clock } from '../util/clock'
import { dayOf } from '../util/day'
import type { Logger } from '../util/logger'
import { koishiBudgetTable } from './budget-table'

export interface ReportSource {
  ctx: Context
  storage: Storage
  /** kotodama's data folder, resolved */
  dataDir(): string
  budgets: BudgetsConfig
  clock(): Clock
  log: Logger
}

const SCOPES = new Set(['all', 'profile', 'channel', 'user'])

const spentRow = (r: any): r is SpentRow => !!r && typeof r === 'object' && typeof r.day === 'string' && typeof r.key === 'string'
  && SCOPES.has(r.scope) && typeof r.spent === 'number' && Number.isFinite(r.spent) && (r.label === undefined || typeof r.label === 'string')

/** A day's file of the budget book: a JSON array of rows; missing: nothing spent; what is not a row is skipped and said. */
export async function readDayFile(path: string, log: Logger): Promise<SpentRow[]> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e: any) {
    if (e?.code === 'ENOENT') return []
    throw new Error(`cannot read the budget book ${path}: ${e?.message ?? e}`)
  }
  let rows: unknown
  try {
    rows = JSON.parse(text)
  } catch (e: any) {
    log.warn('budget book %s is not JSON (%s); the console shows nothing spent for that day', path, e?.message ?? e)
    return []
  }
  if (!Array.isArray(rows)) {
    log.warn('budget book %s is not a list of rows; the console shows nothing spent for that day', path)
    return []
  }
  const good = rows.filter(spentRow)
  const left = rows.length - good.length
  if (left) log.warn('budget book %s: %d of %d rows are not rows (day, scope, key, spent) and are left out', path, left, rows.length)
  return good
}

/** `() => Promise<BudgetReport>` of today, read afresh at each call. */
export function budgetReport(o: ReportSource): () => Promise<BudgetReport> {
  let table: BudgetStore | undefined
  return async () => {
    const day = dayOf(o.clock().now(), o.budgets.timezone)
    const rows = o.storage === 'database'
      ? await (table ??= koishiBudgetTable(o.ctx)).read(day)
      : await readDayFile(join(o.dataDir(), 'budgets', `${day}.json`), o.log)
    const { day: all, perProfileDay, perChannelDay, perUserDay } = o.budgets
    return reportOf(day, rows, { day: all, perProfileDay, perChannelDay, perUserDay })
  }
}
