// Two Koishi instances on ONE MariaDB database serving the same bot (SPEC §25: one instance fires
// each task): both hold the task when it comes due, both try, one turn happens in all. MariaDB, not
// SQLite: @minatojs/driver-sqlite is sql.js, the whole file in memory per process, so two live apps
// on one SQLite file never see each other's writes (docs/schedules.md "Storage"). Skipped, saying
// why, without MariaDB binaries.
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Harness, call, NO_TYPING } from '../support/harness'
import { FakeOpenAI, lastUserText } from '../support/fake-openai'
import { mysqlDatabase } from '../support/databases'
import { startMariaDB, type MariaDB } from '../support/mariadb'
import { schedulesPart } from '../../src/schedules/part'

const TABLE = 'kotodama_schedules'
/** how far ahead the task is asked for: both instances start and read it well before (asserted) */
const AHEAD_MS = 4000

describe('two Koishi apps on one MariaDB serving the same bot (schedules)', function () {
  this.timeout(120_000)
  let server: MariaDB | string
  let model: FakeOpenAI
  let dir: string
  const apps: Harness[] = []
  before(async function () {
    server = await startMariaDB(['kotodama_tasks'])
    if (typeof server === 'string') {
      console.log(`      (skipped: ${server})`)
      this.skip()
    }
    model = await FakeOpenAI.start()
    model.fallback({ toolCalls: [call('finish', {})] })
    dir = await mkdtemp(join(tmpdir(), 'kotodama-schedules-shared-'))
  })
  after(async () => {
    for (const h of apps.splice(0)) await h.stop().catch(() => {})
    await model?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
    if (server && typeof server !== 'string') await server.stop()
  })

  const start = async () => {
    const h = await Harness.start({
      storage: 'database', database: mysqlDatabase({ port: (server as MariaDB).port, database: 'kotodama_tasks' }),
      dataDir: await mkdtemp(join(dir, 'instance-')), profile: { typing: NO_TYPING },
      models: [{ id: 'main', baseURL: model.baseURL, apiKey: 'sk-test', model: 'fake-model', maxRetries: 0, timeoutMs: 10000 }],
    })
    apps.push(h)
    return h
  }
  /** the open tasks the instance's runtime of mock:514 holds in memory (undefined: not running) */
  const held = async (h: Harness) => (await h.app.kotodama.list())[0]?.part(schedulesPart)?.size

  it('a task coming due while both run the bot fires exactly once in all', async () => {
    const a = await start()
    const due = Date.now() + AHEAD_MS
    model.script({ toolCalls: [call('schedule', { at: new Date(due).toISOString(), note: 'stand-up in five' })] })
    await a.client('alice', 'room1').receive('<at id="514"/> remind the room of the stand-up')
    await model.waitForRequests(2)
    await a.settled()
    const [row] = await a.app.database.get(TABLE as any, {}) as any[]
    expect(row, 'the task is a row of the shared table').to.deep.include({ note: 'stand-up in five', rev: 0 })

    // B starts with the bot online: its runtime starts for the row alone and reads the task
    const b = await start()
    await b.until(async () => await held(b) === 1, 'instance B holds the task')
    expect(await held(a)).to.equal(1)
    expect(Date.now(), 'both instances held the task before it came due').to.be.below(due)

    const firings = () => model.requests.filter(r => lastUserText(r).includes(`[schedule #${row.id}, asked by alice`))
    await a.until(() => firings().length === 1, 'the task fires', AHEAD_MS + 10_000)
    await a.settled()
    await b.settled()
    // both timers ran: the loser's conditional delete matched nothing, and it dropped the task
    await a.until(async () => await held(a) === 0 && await held(b) === 0, 'both instances let the task go')
    await a.idle(300)
    expect(firings()).to.have.length(1)
    expect(await b.app.database.get(TABLE as any, {})).to.deep.equal([])
    expect([...a.warnings(), ...b.warnings()]).to.deep.equal([])
  })
})
