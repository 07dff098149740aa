// The parts' tables on Koishi's database (src/koishi/part-records.ts, SPEC §25's tasks under
// storage: database): the same behaviour on minato's memory driver, real SQLite in a temporary
// folder and a real MariaDB (skipped, saying why, without its binaries). A conditional update is
// how instances sharing the database agree, so a stale one must change nothing and say so.
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { App } from 'koishi'
import { databaseApp, memoryDatabase, mysqlDatabase, sqliteDatabase, type DatabasePlugin } from '../support/databases'
import { startMariaDB, type MariaDB } from '../support/mariadb'
import { KoishiRecords, RecordTableError } from '../../src/koishi/part-records'
import type { RecordTableSpec } from '../../src/part/records'
import { runtimeKey } from '../../src/claims/bot-id'

interface Row {
  id: string
  note: string
  at: number
  rev: number
  meta: { by: string }
}

const SPEC: RecordTableSpec<Row> = { name: 'records_test', fields: { id: 'string', note: 'text', at: 'double', rev: 'integer', meta: 'json' }, primary: 'id' }
const A = runtimeKey('neko', 'onebot:1')
const B = runtimeKey('neko', 'onebot:2')
const row = (id: string, o: Partial<Row> = {}): Row => ({ id, note: `note of ${id}`, at: 1.5, rev: 0, meta: { by: 'alice' }, ...o })
const ids = (rows: Row[]) => rows.map(r => r.id).sort()

/** Rejects with a RecordTableError whose message holds every one of `words`. */
async function refused(p: Promise<unknown>, ...words: string[]): Promise<void> {
  const e: any = await p.then((): unknown => undefined, (e: unknown) => e)
  expect(e, 'it should have been refused').to.be.instanceOf(RecordTableError)
  for (const w of words) expect(e.message).to.include(w)
}

/** `open` gives the database, or why there is none; `close` runs after its tests. */
function suite(name: string, open: () => Promise<DatabasePlugin | string>, close: () => Promise<void> = async () => {}) {
  describe(`on ${name}`, function () {
    this.timeout(120_000)
    let app: App | undefined
    let records: KoishiRecords
    before(async function () {
      const db = await open()
      if (typeof db === 'string') {
        console.log(`      (skipped: ${db})`)
        return this.skip()
      }
      app = await databaseApp(db)
      records = new KoishiRecords(app)
    })
    after(async () => {
      await app?.stop()
      await close()
    })

    it('creates, finds, updates only on the rev it was read with, and removes', async () => {
      const t = records.of(A).table(SPEC)
      await t.create(row('k1'))
      await t.create(row('k2', { note: 'x'.repeat(70_000) }))
      expect(await t.find({ id: 'k1' })).to.deep.equal([row('k1')])
      expect((await t.find({ id: 'k2' }))[0].note).to.have.length(70_000)
      // the winner moves the rev; a second instance holding rev 0 changes nothing and is told so
      expect(await t.update({ id: 'k1', rev: 0 }, { at: 2.25, rev: 1 })).to.equal(1)
      expect(await t.update({ id: 'k1', rev: 0 }, { at: 99, rev: 1 })).to.equal(0)
      expect(await t.find({ id: 'k1' })).to.deep.equal([row('k1', { at: 2.25, rev: 1 })])
      expect(await t.remove({ id: 'k1', rev: 0 })).to.equal(0)
      expect(await t.remove({ id: 'k1', rev: 1 })).to.equal(1)
      expect(await t.remove({ id: 'k1' })).to.equal(0)
      expect(ids(await t.find())).to.deep.equal(['k2'])
      expect(await t.remove({})).to.equal(1)
    })

    it('keeps two runtimes\' rows apart, the same id in both', async () => {
      const a = records.of(A).table(SPEC)
      const b = records.of(B).table(SPEC)
      await a.create(row('same', { note: 'of A' }))
      await b.create(row('same', { note: 'of B' }))
      await b.create(row('only-b'))
      expect((await a.find()).map(r => r.note)).to.deep.equal(['of A'])
      expect(ids(await b.find())).to.deep.equal(['only-b', 'same'])
      expect(await a.update({ id: 'only-b' }, { rev: 5 })).to.equal(0)
      expect(await a.update({}, { rev: 7 })).to.equal(1)
      expect((await b.find()).map(r => r.rev)).to.deep.equal([0, 0])
      expect(await a.remove({})).to.equal(1)
      expect(ids(await b.find())).to.deep.equal(['only-b', 'same'])
      await b.remove({})
    })

    it('keeps keys that differ only in case, accents or a trailing space distinct', async () => {
      const t = records.of(A).table(SPEC)
      const keys = ['Ab', 'ab', 'AB', 'é', 'e', 'É', 'a ', 'a', '猫', '100%', 'nul\u0000x']
      for (const [i, id] of keys.entries()) await t.create(row(id, { rev: i }))
      expect(ids(await t.find())).to.deep.equal([...keys].sort())
      for (const [i, id] of keys.entries()) expect(await t.find({ id }), id).to.deep.equal([row(id, { rev: i })])
      expect(await t.update({ id: 'ab' }, { note: 'lower' })).to.equal(1)
      expect((await t.find({ id: 'Ab' }))[0].note).to.equal('note of Ab')
      expect(await t.remove({ id: 'é' })).to.equal(1)
      expect(await t.find({ id: 'e' })).to.have.length(1)
      await t.remove({})
    })

    it('refuses bad input with the table and the field, storing nothing; a duplicate id with the driver\'s words', async () => {
      const t = records.of(A).table(SPEC)
      await refused(t.create({ ...row('k'), at: Number.NaN }), 'kotodama_records_test', 'row.at', 'finite number')
      await refused(t.create({ id: 'k', note: 'n' } as any), 'kotodama_records_test', 'row.at is missing')
      await refused(t.create(row('Z'.repeat(100))), 'row.id', '300 characters as stored')
      await refused(t.update({ note: 'n' } as any, { rev: 1 }), 'where.note is text')
      await refused(t.update({ id: 'k' }, { nope: 1 } as any), 'patch.nope is not a field')
      await refused(t.find({ id: undefined } as any), 'where.id is undefined')
      expect(await t.find()).to.deep.equal([])
      await t.create(row('k'))
      await refused(t.create(row('k', { note: 'again' })), 'kotodama_records_test: cannot create a row: ')
      expect(await t.find()).to.deep.equal([row('k')])
      await t.remove({})
      expect(() => records.of(A).table({ ...SPEC, fields: { ...SPEC.fields, runtime: 'string' } as any })).to.throw(RecordTableError, 'runtime')
    })
  })
}

describe('part tables on Koishi\'s database', () => {
  suite('the memory driver', async () => memoryDatabase())

  let dir: string | undefined
  suite('SQLite', async () => sqliteDatabase(join(dir = await mkdtemp(join(tmpdir(), 'kotodama-records-')), 'koishi.db')),
    async () => { if (dir) await rm(dir, { recursive: true, force: true }) })

  let server: MariaDB | string | undefined
  suite('MariaDB', async () => {
    server = await startMariaDB(['kotodama_records'])
    return typeof server === 'string' ? server : mysqlDatabase({ port: server.port, database: 'kotodama_records' })
  }, async () => { if (server && typeof server !== 'string') await server.stop() })
})
