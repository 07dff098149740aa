// The budget book's files (SPEC §22): `<dataDir>/budgets/<day>.json`, a JSON array of SpentRow, one
// row per key, each written whole through a temporary file. One plugin instance writes them; the
// console reads the same format. A file that does not parse is set aside (renamed), never lost.
import { readdir, readFile, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { atomicWrite } from '../util/atomic-write'
import type { Logger } from '../util/logger'
import { BUDGET_SCOPES, type BudgetStore, type SpentRow } from './store'

const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.json$/

export class FileBudgetStore implements BudgetStore {
  /** one write at a time: add reads, sums and writes a day's file */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(readonly dir: string, private logger?: Logger) {}

  private fileOf(day: string): string {
    return join(this.dir, `${day}.json`)
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.queue.then(fn)
    this.queue = p.catch(() => {})
    return p
  }

  read(day: string): Promise<SpentRow[]> {
    return this.serial(() => this.rowsOf(day))
  }

  /** The day's rows; a missing file is an empty day, one that does not parse is renamed aside. */
  private async rowsOf(day: string): Promise<SpentRow[]> {
    const file = this.fileOf(day)
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (e: any) {
      if (e?.code === 'ENOENT') return []
      throw e
    }
    try {
      const rows: unknown = JSON.parse(text)
      if (!Array.isArray(rows)) throw new Error('not a JSON array')
      return rows.filter((r): r is SpentRow => !!r && r.day === day && BUDGET_SCOPES.has(r.scope) && typeof r.key === 'string'
        && typeof r.spent === 'number' && Number.isFinite(r.spent))
    } catch (e: any) {
      const aside = `${file}.bad-${Date.now()}`
      await rename(file, aside)
      this.logger?.warn('budgets: %s could not be read (%s); set aside as %s, the day counts from 0', file, e?.message ?? e, aside)
      return []
    }
  }

  add(rows: SpentRow[]): Promise<void> {
    const days = new Map<string, SpentRow[]>()
    for (const r of rows) days.set(r.day, [...days.get(r.day) ?? [], r])
    return this.serial(async () => {
      for (const [day, added] of days) {
        const byKey = new Map((await this.rowsOf(day)).map(r => [r.key, { ...r }]))
        for (const r of added) {
          const row = byKey.get(r.key)
          if (row) {
            row.spent += r.spent
            if (r.label) row.label = r.label
          } else byKey.set(r.key, { ...r })
        }
        await atomicWrite(this.fileOf(day), JSON.stringify([...byKey.values()]))
      }
    })
  }

  prune(before: string): Promise<void> {
    return this.serial(async () => {
      const names = await readdir(this.dir).catch((e: any) => {
        if (e?.code === 'ENOENT') return [] as string[]
        throw e
      })
      for (const name of names) {
        const day = DAY_FILE.exec(name)?.[1]
        if (day && day < before) await rm(join(this.dir, name), { force: true })
      }
    })
  }
}
