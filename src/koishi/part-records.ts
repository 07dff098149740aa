// PartRecords (src/part/records.ts) on Koishi's database (minato): a part's table
// `kotodama_<name>`, declared on first use, with a `runtime` column (runtimeKey(profile, bot)) added
// to every row and every `where`, so a runtime never sees another's rows. The primary key is
// (runtime, the spec's primary): one runtime's ids stay unique without a global id scheme, its
// rows are read by the key's prefix, and 255 + 255 characters of ASCII (stored forms) × 4 bytes
// stay within InnoDB's 3072-byte key in utf8mb4.
import type { Context } from 'koishi'
import type { PartRecords, RecordTable, RecordTableSpec, RecordWhere } from '../part/records'
import { RecordTableError, STRING_CHARS, columnOf, encoded, rowOf, specProblem, storedFields } from './record-values'

export { RecordTableError } from './record-values'

type Database = Context['database']

/** A table's state in this process: declared or not, and its queue. */
interface TableState {
  declared: boolean
  queue: Promise<unknown>
}

/** The part tables of one Koishi database service; `of(runtime)` is one runtime's view of them. */
export class KoishiRecords {
  private tables = new Map<string, TableState>()

  constructor(private ctx: Context) {}

  /** The tables of the runtime whose key (runtimeKey(profile, bot)) is `runtime`. */
  of(runtime: string): PartRecords {
    return { table: <R extends object>(spec: RecordTableSpec<R>) => this.table(spec, runtime) }
  }

  private table<R extends object>(spec: RecordTableSpec<R>, runtimeKey: string): RecordTable<R> {
    const name = `kotodama_${spec.name}`
    const refuse = (what: string, why: string) => new RecordTableError(`${name}: cannot ${what}: ${why}`)
    const bad = specProblem(spec)
    if (bad) throw refuse('declare the table', bad)
    const runtime = encoded(runtimeKey)
    if (runtime.length > STRING_CHARS) throw refuse('declare the table', `the runtime's key is ${runtime.length} characters as stored; at most ${STRING_CHARS}`)
    const state = this.stateOf(name)

    // One call at a time per table in this process: SQLite's driver updates by reading the rows,
    // then writing each by its key, so two conditional updates at once could both win.
    const run = <T>(what: string, job: (database: Database) => Promise<T>): Promise<T> => {
      const go = state.queue.then(() => this.attempt(name, job)).catch((e: any) => {
        throw e instanceof RecordTableError ? refuse(what, e.message) : refuse(what, e?.message ?? String(e))
      })
      state.queue = go.catch(() => {})
      return go
    }
    const declare = (database: Database) => {
      if (state.declared) return database
      state.declared = true
      const fields: Record<string, any> = { runtime: { type: 'string', length: STRING_CHARS } }
      for (const [field, kind] of Object.entries(spec.fields)) fields[field] = columnOf(kind as any)
      ;(this.ctx.model.extend as any)(name, fields, { primary: ['runtime', spec.primary] })
      return database
    }
    const where = (w: RecordWhere<R> | undefined) => ({ ...storedFields(spec, 'where', w ?? {}), runtime })
    const check = <T>(what: string, make: () => T): T => {
      try {
        return make()
      } catch (e: any) {
        throw refuse(what, e?.message ?? String(e))
      }
    }

    return {
      find: async w => {
        const query = check('find rows', () => where(w))
        const rows = await run('find rows', db => declare(db).get(name as any, query as any))
        return rows.map(r => rowOf(spec, r))
      },
      create: async row => {
        const stored = check('create a row', () => storedFields(spec, 'row', row, true))
        await run('create a row', db => declare(db).create(name as any, { ...stored, runtime } as any))
      },
      update: async (w, patch) => {
        const query = check('update rows', () => where(w))
        const change = check('update rows', () => storedFields(spec, 'patch', patch))
        if (!Object.keys(change).length) return 0
        // every driver answers how many rows matched: memory and SQLite count them, MySQL's
        // affectedRows is the matched count (the client's FOUND_ROWS flag); none: nothing matched
        const result = await run('update rows', db => declare(db).set(name as any, query as any, change as any))
        return result?.matched ?? 0
      },
      remove: async w => {
        const query = check('remove rows', () => where(w))
        const result = await run('remove rows', db => declare(db).remove(name as any, query as any))
        return result?.removed ?? result?.matched ?? 0
      },
    }
  }

  private stateOf(name: string): TableState {
    let state = this.tables.get(name)
    if (!state) this.tables.set(name, state = { declared: false, queue: Promise.resolve() })
    return state
  }

  // Two instances creating the table at once: one CREATE fails, and minato 3.7 keeps that failed
  // preparation (every later query of the table awaits it). The table is there now: the failure is
  // forgotten and the table prepared again, once (as budget-table.ts does).
  private async attempt<T>(name: string, job: (database: Database) => Promise<T>): Promise<T> {
    const database = this.ctx.database
    if (!database) throw new RecordTableError('Koishi has no database service')
    return job(database).catch(async e => {
      const tasks: Record<string, Promise<void>> | undefined = (database as any).prepareTasks
      if (!/already exists/i.test(String(e?.message)) || !tasks) throw e
      tasks[name] = Promise.resolve()
      database.refresh()
      return job(database)
    })
  }
}
