// Issue 15: the same history suite against every storage backend — JSONL files, and the database
// table on minato's memory driver, on real SQLite and on a real MariaDB server.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { App } from 'koishi'
import { describeHistoryBackend } from './support/history-suite'
import { filesBackend } from './support/files-backend'
import { tableBackend } from './support/table-backend'
import { databaseApp, memoryDatabase, mysqlDatabase, sqliteDatabase } from './support/databases'
import { startMariaDB, type MariaDB } from './support/mariadb'

describeHistoryBackend('files (JSONL)', () => filesBackend())

describeHistoryBackend('database on minato memory', async () => {
  const app = await databaseApp(memoryDatabase())
  return tableBackend(app, () => app.stop())
})

let sqliteMissing: string | undefined
describeHistoryBackend('database on SQLite', async () => {
  if (sqliteMissing) return undefined
  const dir = await mkdtemp(join(tmpdir(), 'kotodama-sqlite-'))
  const db = sqliteDatabase(join(dir, 'koishi.db'))
  if (typeof db === 'string') {
    await rm(dir, { recursive: true, force: true })
    console.log(`      (SQLite skipped: ${sqliteMissing = db})`)
    return undefined
  }
  const app = await databaseApp(db)
  return tableBackend(app, async () => {
    await app.stop()
    await rm(dir, { recursive: true, force: true })
  })
})

describe('on a MariaDB server of the test\'s own', function () {
  this.timeout(120_000)
  let server: MariaDB | string
  let app: App | undefined
  before(async function () {
    server = await startMariaDB(['kotodama_suite'])
    if (typeof server === 'string') {
      console.log(`      (MariaDB skipped: ${server})`)
      return
    }
    app = await databaseApp(mysqlDatabase({ port: server.port, database: 'kotodama_suite' }))
  })
  after(async () => {
    await app?.stop()
    if (typeof server !== 'string') await server?.stop()
  })
  describeHistoryBackend('database on MariaDB', async () => app && tableBackend(app))
})
