// The budget book's store on Koishi's database (SPEC §22 "What it may cost", docs/storage.md): one
// row per (day, key) in `kotodama_budget`. `add` increments in the database itself (minato's upsert
// with `$.add`: MySQL's `ON DUPLICATE KEY UPDATE spent = spent + x`), so instances sharing the
// database never overwrite each other's spending. The model is declared on first use.
import { $, type Context } from 'koishi'
import { BUDGET_SCOPES, type BudgetScope, type BudgetStore, type SpentRow } from '../budgets/store'

export const BUDGET_TABLE = 'kotodama_budget'

export interface BudgetRecord {
  day: string
  key: string
  scope: string
  spent: number
  label: string
}

declare module 'koishi' {
  interface Tables {
    kotodama_budget: BudgetRecord
  }
}

/** The longest key and label stored; (day, key) stays within InnoDB's 3072-byte key in utf8mb4. */
export const MAX_KEY = 640
const MAX_LABEL = 255

/** Thrown for every failure of the table, with what was asked and the driver's words. */
export class BudgetTableError extends Error {
  name = 'BudgetTableError'
}

// A key as stored: every character but lower-case ASCII letters, digits and `:/_.@#-` as %XX of its
// UTF-8 bytes. MySQL's default collation (utf8mb4_general_ci) would make `U1` and `u1`, or `é` and
// `e`, one key; SQLite's queries stop at a NUL, which a platform's id may hold.
const hex = (b: number) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`
const stored = (key: string) => key.replace(/[^a-z0-9:/_.@#-]/gu, c => [...Buffer.from(c)].map(hex).join(''))
const unstored = (key: string) => decodeURIComponent(key)

/** Rows of one (day, key) summed: one upsert may not name a primary key twice. */
function merged(rows: SpentRow[]): SpentRow[] {
  const by = new Map<string, SpentRow>()
  for (const r of rows) {
    const id = `${r.day}\u0000${r.key}`
    const had = by.get(id)
    if (!had) by.set(id, { ...r })
    else {
      had.spent += r.spent
      if (r.label) had.label = r.label
    }
  }
  return [...by.values()]
}

/** Why a row cannot be stored, or undefined. */
function rowProblem(r: SpentRow): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(r?.day ?? '')) return `day ${JSON.stringify(r?.day)} is not YYYY-MM-DD`
  if (typeof r.key !== 'string' || !r.key || stored(r.key).length > MAX_KEY) return `key must be 1 to ${MAX_KEY} characters`
  if (!BUDGET_SCOPES.has(r.scope)) return `scope ${JSON.stringify(r.scope)} is not one of ${[...BUDGET_SCOPES].join(', ')}`
  if (typeof r.spent !== 'number' || !Number.isFinite(r.spent)) {
    return `spent ${typeof r.spent === 'number' ? r.spent : JSON.stringify(r.spent)} is not a finite number`
  }
}

export function koishiBudgetTable(ctx: Context): BudgetStore {
  let declared = false
  const db = (what: string) => {
    const database = ctx.database
    if (!database) throw new BudgetTableError(`${BUDGET_TABLE}: cannot ${what}: Koishi has no database service`)
    if (!declared) {
      declared = true
      ctx.model.extend(BUDGET_TABLE, {
        day: { type: 'string', length: 10 },
        key: { type: 'string', length: MAX_KEY },
        scope: { type: 'string', length: 16 },
        spent: { type: 'double', initial: 0 },
        label: { type: 'string', length: MAX_LABEL, initial: '' },
      }, { primary: ['day', 'key'] })
    }
    return database
  }
  // Two instances creating the table at once: one CREATE fails, and minato 3.7 keeps that failed
  // preparation (every later query of the database awaits it, and a refresh awaits it too). The
  // table is there now: the failure is forgotten and the table prepared again, once.
  const attempt = async <T>(what: string, job: (database: Context['database']) => Promise<T>): Promise<T> => {
    const database = db(what)
    try {
      return await job(database).catch(async e => {
        const tasks: Record<string, Promise<void>> | undefined = (database as any).prepareTasks
        if (!/already exists/i.test(String(e?.message)) || !tasks) throw e
        tasks[BUDGET_TABLE] = Promise.resolve()
        database.refresh()
        return job(database)
      })
    } catch (e: any) {
      throw new BudgetTableError(`${BUDGET_TABLE}: cannot ${what}: ${e?.message ?? e}`)
    }
  }
  // One add at a time in this process: SQLite's and the memory driver's upsert read, then write.
  let queue: Promise<unknown> = Promise.resolve()
  return {
    async read(day) {
      const rows = await attempt(`read ${day}`, database => database.get(BUDGET_TABLE, { day }))
      return rows.map((r): SpentRow => ({
        day: r.day, key: unstored(r.key), scope: r.scope as BudgetScope, spent: r.spent, ...r.label ? { label: r.label } : {},
      }))
    },
    add(rows) {
      const what = `add to ${rows.length} key(s)`
      const bad = rows.map(rowProblem).find(Boolean)
      if (bad) return Promise.reject(new BudgetTableError(`${BUDGET_TABLE}: cannot ${what}: ${bad}`))
      const records = merged(rows).map(r => ({ day: r.day, key: stored(r.key), scope: r.scope, spent: r.spent, label: r.label?.slice(0, MAX_LABEL) }))
      const run = queue.then(async () => {
        if (!records.length) return
        await attempt(what, database => database.upsert(BUDGET_TABLE, row => records.map(r => ({
          day: r.day, key: r.key, scope: r.scope, spent: $.add(row.spent, r.spent), ...r.label ? { label: r.label } : {},
        }))))
      })
      queue = run.catch(() => {})
      return run
    },
    async prune(before) {
      await attempt(`prune before ${before}`, database => database.remove(BUDGET_TABLE, { day: { $lt: before } }))
    },
  }
}
