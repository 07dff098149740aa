// kotodama.migrate's core (issue 15): copy, verify, then move the source aside; a target that
// already has a history, or a copy that fails, leaves the source live and the target as it was.
import { expect } from 'chai'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { App } from 'koishi'
import { koishiHistoryTable } from '../../src/koishi/history-table'
import type { HistoryTable } from '../../src/history/table'
import { filesSide, tableSide } from '../../src/history/sides'
import { MigrationError, migrateHistory } from '../../src/history/migrate'
import { databaseApp, memoryDatabase } from '../support/databases'
import { fact, quiet } from '../support/history-suite'

describe('history migration', () => {
  let dir: string
  let app: App
  let table: HistoryTable
  let broken = false
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-migrate-'))
    app = await databaseApp(memoryDatabase())
    const inner = koishiHistoryTable(app)
    broken = false
    table = { ...inner, name: inner.name, write: (ref, rows) => broken && ref.conversation === 'group:2' ? Promise.reject(new Error('connection lost')) : inner.write(ref, rows) }
  })
  afterEach(async () => {
    await app.stop()
    await rm(dir, { recursive: true, force: true })
  })

  const files = () => filesSide(dir, quiet)
  const database = () => tableSide(table, 'neko', 'mock:1', quiet)
  const ids = (entries: any[]) => entries.map(e => e.fact.id)

  async function seed(side = files()) {
    for (const [key, n] of [['group:1', 3], ['group:2', 2], ['private:小明', 1]] as const) {
      const store = side.open(key)
      await store.append(Array.from({ length: n }, (_, i) => fact(i)))
      await store.flushed()
    }
  }

  it('moves every conversation and back, in order, and keeps the sources aside', async () => {
    await seed()
    expect(await migrateHistory(files(), database())).to.deep.equal({ conversations: 3, entries: 6 })
    expect(await files().keys()).to.deep.equal([])
    expect((await readdir(dir)).filter(n => n.includes('.migrated-'))).to.have.length(3)
    expect(await database().keys()).to.deep.equal(['group:1', 'group:2', 'private:小明'])
    expect(ids(await database().open('group:1').load())).to.deep.equal(['0', '1', '2'])
    expect(await migrateHistory(database(), files())).to.deep.equal({ conversations: 3, entries: 6 })
    expect(await database().keys()).to.deep.equal([])
    expect(ids(await files().open('private:小明').load())).to.deep.equal(['0'])
  })

  it('refuses a target that already holds a history, before writing anything', async () => {
    await seed()
    const there = database().open('group:2')
    await there.append([fact(9)])
    await there.flushed()
    const e = await migrateHistory(files(), database()).catch(err => err)
    expect(e).to.be.instanceOf(MigrationError)
    expect(e.reason).to.equal('target-not-empty')
    expect(await files().keys()).to.have.length(3)
    expect(await database().keys()).to.deep.equal(['group:2'])
  })

  it('a copy that fails sets the copies made aside and leaves the source live', async () => {
    await seed()
    broken = true
    const e = await migrateHistory(files(), database()).catch(err => err)
    expect(e).to.be.instanceOf(MigrationError)
    expect(e.reason).to.equal('not-written')
    expect(await files().keys()).to.have.length(3)
    expect(await database().keys()).to.deep.equal([])
    broken = false
    expect(await migrateHistory(files(), database())).to.deep.equal({ conversations: 3, entries: 6 })
  })
})
