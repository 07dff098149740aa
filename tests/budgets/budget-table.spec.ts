// The budget book's database store (SPEC §22 "What it may cost", docs/storage.md "The budget table"):
// the store's contract on minato's memory driver, on real SQLite and on a real MariaDB server the
// test starts itself; two Koishi apps on one MariaDB adding to one key at once end with the exact
// sum; a database that goes away, or a server that stops, gives a clear error.
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { App, type ForkScope } from 'koishi'
import { BUDGET_TABLE, koishiBudgetTable } from '../../src/koishi/budget-table'
import type { BudgetStore, SpentRow } from '../../src/budgets/store'
import { memoryDatabase, mysqlDatabase, sqliteDatabase, type DatabasePlugin } from '../support/databases'
import { startMariaDB, type MariaDB } from '../support/mariadb'

interface Under {
  app: App
  /** the database plugin, disposed by a test that takes the database away */
  db: ForkScope
  store: BudgetStore
  close(): Promise<void>
}

async function open(db: DatabasePlugin, close: () => Promise<void> = async () => {}): Promise<Under> {
  const app = new App()
  const fork = app.plugin(db.plugin, db.config)
  await app.start()
  return { app, db: fork, store: koishiBudgetTable(app), close: async () => { await app.stop(); await close() } }
}

const row = (key: string, spent: number, o: Partial<SpentRow> = {}): SpentRow => ({
  day: '2026-12-04', scope: key === 'all' ? 'all' : key.slice(0, key.indexOf(':')) as SpentRow['scope'], key, spent, ...o,
})
const byKey = (rows: SpentRow[]) => Object.fromEntries(rows.map(r => [r.key, r.spent]))
const CHANNEL = 'channel:neko\u0000onebot:514/group:77'

function describeStore(name: string, setup: () => Promise<Under | undefined>) {
  describe(`budget table on ${name}`, function () {
    this.timeout(60_000)
    let u: Under
    beforeEach(async function () {
      const made = await setup()
      if (!made) this.skip()
      u = made
    })
    afterEach(async () => { await u?.close() })

    it('add creates the rows of a day; read gives that day only, with labels', async () => {
      await u.store.add([row('all', 0.5), row(CHANNEL, 0.25, { label: 'Jazz club' }), row('user:onebot:10001', 0.25, { label: 'Mia' })])
      await u.store.add([row('all', 2, { day: '2026-12-05' })])
      const rows = await u.store.read('2026-12-04')
      expect(rows.sort((a, b) => a.key.localeCompare(b.key))).to.deep.equal([
        { day: '2026-12-04', scope: 'all', key: 'all', spent: 0.5 },
        { day: '2026-12-04', scope: 'channel', key: CHANNEL, spent: 0.25, label: 'Jazz club' },
        { day: '2026-12-04', scope: 'user', key: 'user:onebot:10001', spent: 0.25, label: 'Mia' },
      ])
      expect(byKey(await u.store.read('2026-12-05'))).to.deep.equal({ all: 2 })
      expect(await u.store.read('2026-12-06')).to.deep.equal([])
    })

    it('add increments what is stored; a key named twice in one add counts twice; the last label wins', async () => {
      await u.store.add([row(CHANNEL, 1.5, { label: 'Jazz club' }), row('all', 1)])
      await u.store.add([row(CHANNEL, 0.25), row('all', 0.125), row('all', 0.125)])
      await u.store.add([row(CHANNEL, 0.25, { label: 'Jazz club (Fridays)' })])
      const rows = await u.store.read('2026-12-04')
      expect(byKey(rows)).to.deep.equal({ all: 1.25, [CHANNEL]: 2 })
      expect(rows.find(r => r.key === CHANNEL)!.label).to.equal('Jazz club (Fridays)')
    })

    it('keys that differ only in case, accents or spaces stay apart (whatever the collation)', async () => {
      const keys = ['user:slack:U1', 'user:slack:u1', 'user:x:é', 'user:x:e', 'user:x:e ', 'user:x:100%', 'user:x:100%25', 'user:x:群友']
      await u.store.add(keys.map((key, i) => row(key, i + 1)))
      await u.store.add(keys.map(key => row(key, 0.5)))
      expect(byKey(await u.store.read('2026-12-04'))).to.deep.equal(Object.fromEntries(keys.map((key, i) => [key, i + 1.5])))
    })

    it('adds made at once in one process all count', async () => {
      await Promise.all(Array.from({ length: 40 }, () => u.store.add([row('all', 0.125), row('profile:neko', 0.25)])))
      expect(byKey(await u.store.read('2026-12-04'))).to.deep.equal({ all: 5, 'profile:neko': 10 })
    })

    it('prune forgets the days before the one named, and keeps it and later ones', async () => {
      for (const day of ['2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03']) await u.store.add([row('all', 1, { day })])
      await u.store.prune('2026-12-02')
      for (const [day, n] of [['2026-11-30', 0], ['2026-12-01', 0], ['2026-12-02', 1], ['2026-12-03', 1]] as const) {
        expect(await u.store.read(day), day).to.have.length(n)
      }
    })

    it('a bad row is refused with a clear error and nothing of that add is stored', async () => {
      await u.store.add([row('all', 1)])
      const bad = await u.store.add([row('all', 1), row('all', Number.NaN)]).catch((e: Error) => e)
      expect(bad).to.be.an('error').with.property('message', `${BUDGET_TABLE}: cannot add to 2 key(s): spent NaN is not a finite number`)
      const long = await u.store.add([row(`user:onebot:${'9'.repeat(700)}`, 1)]).catch((e: Error) => e.message)
      expect(long).to.equal(`${BUDGET_TABLE}: cannot add to 1 key(s): key must be 1 to 640 characters`)
      expect(byKey(await u.store.read('2026-12-04'))).to.deep.equal({ all: 1 })
    })

    it('a database that went away: add and read fail with a clear error, never a crash', async () => {
      await u.store.add([row('all', 0.75)])
      u.db.dispose()
      const failed = await u.store.add([row('all', 1)]).catch((e: Error) => e)
      expect(failed).to.be.an('error')
      expect((failed as Error).message).to.match(new RegExp(`^${BUDGET_TABLE}: cannot add to 1 key\\(s\\): `))
      expect(await u.store.read('2026-12-04').catch((e: Error) => e.name)).to.equal('BudgetTableError')
    })
  })
}

describeStore('minato memory', () => open(memoryDatabase()))

describeStore('SQLite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kotodama-budget-sqlite-'))
  const db = sqliteDatabase(join(dir, 'koishi.db'))
  if (typeof db === 'string') {
    console.log(`      (SQLite skipped: ${db})`)
    await rm(dir, { recursive: true, force: true })
    return undefined
  }
  return open(db, () => rm(dir, { recursive: true, force: true }))
})

describe('budget table on a MariaDB server of the test\'s own', function () {
  this.timeout(120_000)
  let server: MariaDB | string
  let n = 0
  before(async () => {
    server = await startMariaDB(Array.from({ length: 12 }, (_, i) => `kotodama_budget_${i}`))
    if (typeof server === 'string') console.log(`      (MariaDB skipped: ${server})`)
  })
  after(async () => { if (typeof server !== 'string') await server?.stop() })
  // each test a database of its own
  const database = () => mysqlDatabase({ port: (server as MariaDB).port, database: `kotodama_budget_${n++}` })

  describeStore('MariaDB', async () => typeof server === 'string' ? undefined : open(database()))

  it('two Koishi apps adding to the same keys at once end with the exact sum', async function () {
    if (typeof server === 'string') this.skip()
    const db = database()
    const [a, b] = [await open(db), await open(db)]
    try {
      // 0.125 is exact in binary: any lost or doubled increment shows in the sum
      const adds = (u: Under, label: string) => Array.from({ length: 60 }, () => u.store.add([row('all', 0.125), row(CHANNEL, 0.125, { label })]))
      await Promise.all([...adds(a, 'Jazz club'), ...adds(b, 'Jazz club')])
      for (const u of [a, b]) expect(byKey(await u.store.read('2026-12-04'))).to.deep.equal({ all: 15, [CHANNEL]: 15 })
      expect(await a.app.database.get(BUDGET_TABLE, {})).to.have.length(2)
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('a server that stopped: add and read fail with a clear error', async function () {
    if (typeof server === 'string') this.skip()
    const own = await startMariaDB(['kotodama_stopped'])
    if (typeof own === 'string') this.skip()
    const u = await open(mysqlDatabase({ port: (own as MariaDB).port, database: 'kotodama_stopped' }))
    try {
      await u.store.add([row('all', 0.5)])
      await (own as MariaDB).stop()
      const failed = await u.store.add([row('all', 1)]).catch((e: Error) => e)
      expect(failed).to.be.an('error').with.property('name', 'BudgetTableError')
      expect((failed as Error).message).to.match(new RegExp(`^${BUDGET_TABLE}: cannot add to 1 key\\(s\\): \\S`))
      expect(await u.store.read('2026-12-04').catch((e: Error) => e.message)).to.match(new RegExp(`^${BUDGET_TABLE}: cannot read 2026-12-04: \\S`))
    } finally {
      await u.close().catch(() => {})
    }
  })
})
