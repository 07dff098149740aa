// Issue 15: the same history suite against every storage backend — JSONL files, and the database
// table on minato's memory driver, on real SQLite and on a real MariaDB server.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { App } from 'koishi'
import { expect } from 'chai'
import { describeHistoryBackend, fact, quiet } from '../support/history-suite'
import type { HistoryTable } from '../../src/history/table'
import { TableHistoryStore } from '../../src/history/table-store'
import { filesBackend } from '../support/files-backend'
import { tableBackend } from '../support/table-backend'
import { databaseApp, memoryDatabase, mysqlDatabase, sqliteDatabase } from '../support/databases'
import { startMariaDB, type MariaDB } from '../support/mariadb'

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

describe('database history: appends while a write is in flight', () => {
  it('get the next numbers, in order, and go out with the next write', async () => {
    const written: { seq: number; entry: string }[][] = []
    let release: () => void = () => {}
    let writes = 0
    const table: HistoryTable = {
      name: 't',
      write: async (_ref, rows) => {
        writes++
        await new Promise<void>(r => release = r)
        written.push(rows.map(r => ({ seq: r.seq, entry: r.entry })))
      },
      newest: async () => [],
      lastSeq: async () => 41,
      setAside: async () => 0,
      conversations: async () => [],
      runtimes: async () => [],
    }
    const store = new TableHistoryStore(table, { profile: 'p', bot: 'b:1', conversation: 'c' }, quiet)
    const first = store.append([fact(0)])
    // the first write is in flight (lastSeq read, rows numbered, waiting for the table); the
    // appends of one moment go out together, so it starts a tick later
    while (!writes) await new Promise(r => setImmediate(r))
    store.append([fact(1)]).catch(() => {})
    store.append([fact(2)]).catch(() => {})
    release()
    await first
    while (writes < 2) await new Promise(r => setImmediate(r))
    release()
    await store.idle()
    expect(written.map(batch => batch.map(r => [r.seq, JSON.parse(r.entry).fact.id]))).to.deep.equal([[[42, '0']], [[43, '1'], [44, '2']]])
  })
})
