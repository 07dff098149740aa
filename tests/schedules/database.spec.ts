// Schedules on Koishi's database (SPEC §25, storage: database): a task the model asks for is a row
// of `kotodama_schedules` in a real SQLite file, fires once, survives a restart of the whole app
// (late, and saying so), and fires once when its bot moves to another instance on the same file.
// The model is a scripted FakeOpenAI shared by the apps of a test, so "once" counts every app's turns.
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Harness, call, NO_TYPING } from '../support/harness'
import { FakeOpenAI, lastUserText } from '../support/fake-openai'
import { sqliteDatabase, type DatabasePlugin } from '../support/databases'
import { fakeClock, type InstalledClock } from '../support/fake-clock'
import { captureListeners } from '../support/console-listeners'
import { registerSchedules } from '../../src/koishi/console/schedules'
import { RecordsTaskStore } from '../../src/schedules/records-store'

const TABLE = 'kotodama_schedules'
const HOUR = 3_600_000

describe('schedules on SQLite (storage: database)', function () {
  this.timeout(60_000)
  const installClock = fakeClock()
  let dir: string
  let db: DatabasePlugin
  let model: FakeOpenAI
  const apps: Harness[] = []

  beforeEach(async function () {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-schedules-db-'))
    const made = sqliteDatabase(join(dir, 'koishi.db'))
    if (typeof made === 'string') {
      console.log(`      (skipped: ${made})`)
      return this.skip()
    }
    db = made
    model = await FakeOpenAI.start()
    model.fallback({ toolCalls: [call('finish', {})] })
  })
  afterEach(async () => {
    for (const h of apps.splice(0)) await h.stop().catch(() => {})
    await model?.close()
    await rm(dir, { recursive: true, force: true })
  })

  /** An app on the test's SQLite file and model; `dataDir`: an instance's own folder, kept by the test. */
  async function start(dataDir?: string): Promise<Harness> {
    const h = await Harness.start({
      storage: 'database', database: db, profile: { typing: NO_TYPING }, ...dataDir ? { dataDir } : {},
      models: [{ id: 'main', baseURL: model.baseURL, apiKey: 'sk-test', model: 'fake-model', maxRetries: 0, timeoutMs: 10000 }],
    })
    apps.push(h)
    return h
  }

  async function stop(h: Harness): Promise<void> {
    apps.splice(apps.indexOf(h), 1)
    await h.stop()
  }

  /** alice asks in room1; the model schedules `at` with `note`. Returns the stored row. */
  async function ask(h: Harness, at: string, note: string) {
    const before = model.requests.length
    model.script({ toolCalls: [call('schedule', { at, note })] })
    await h.client('alice', 'room1').receive(`<at id="514"/> remind me: ${note}`)
    await model.waitForRequests(before + 2)
    await h.settled()
    expect(JSON.stringify(model.requests.at(-1)!.body.messages)).to.include('\\"ok\\":true')
    const rows = await h.app.database.get(TABLE as any, {})
    expect(rows).to.have.length(1)
    return rows[0] as any
  }

  /** The turns a task's firing opened, across every app of the test. */
  const firings = (id: string) => model.requests.filter(r => lastUserText(r).includes(`[schedule #${id}, asked by alice`))

  it('stores a one-time task in kotodama_schedules and fires it once at its time', async () => {
    const h = await start()
    const row = await ask(h, new Date(Date.now() + 1500).toISOString(), 'water the plants')
    expect(row).to.deep.include({ runtime: 'neko%00mock:514', note: 'water the plants', cron: '', rev: 0 })
    expect(row.who).to.deep.include({ platform: 'mock', id: 'alice' })
    await h.until(() => firings(row.id).length === 1, 'the task fires', 10_000)
    await h.settled()
    expect(lastUserText(firings(row.id)[0])).to.match(/: water the plants\]/)
    expect(await h.app.database.get(TABLE as any, {})).to.deep.equal([])
    await h.idle(300)
    expect(firings(row.id)).to.have.length(1)
  })

  it('a task due while the app was down fires once at the next start, its note saying how late', async () => {
    const clock: InstalledClock = installClock({ toFake: ['Date'], now: Date.now(), shouldAdvanceTime: false })
    const dataDir = await mkdtemp(join(dir, 'instance-'))
    let h = await start(dataDir)
    const row = await ask(h, new Date(clock.now + HOUR).toISOString(), 'call mum')
    await stop(h)
    clock.setSystemTime(clock.now + HOUR + 5 * 60_000)
    // a new app on the same file: nobody writes; the task's runtime starts because of its row
    h = await start(dataDir)
    await h.until(() => firings(row.id).length === 1, 'the late task fires', 10_000)
    await h.settled()
    expect(lastUserText(firings(row.id)[0])).to.include(': call mum; 5 min late]')
    expect(await h.app.database.get(TABLE as any, {})).to.deep.equal([])
    await stop(h)
    h = await start(dataDir)
    await h.idle(300)
    expect(await h.app.kotodama.list()).to.deep.equal([])
    expect(firings(row.id)).to.have.length(1)
  })

  it('a bot that moves to another instance on the same file: that one fires the task once, the first does not again', async () => {
    const clock: InstalledClock = installClock({ toFake: ['Date'], now: Date.now(), shouldAdvanceTime: false })
    const [homeA, homeB] = [await mkdtemp(join(dir, 'a-')), await mkdtemp(join(dir, 'b-'))]
    const a = await start(homeA)
    const row = await ask(a, new Date(clock.now + HOUR).toISOString(), 'post the plan')
    await stop(a)
    clock.setSystemTime(clock.now + HOUR + 60_000)
    // instance B has never seen this bot: its home is empty, the task comes from the table
    const b = await start(homeB)
    await b.until(() => firings(row.id).length === 1, 'instance B fires the task', 10_000)
    await b.settled()
    await stop(b)
    const again = await start(homeA)
    await again.idle(300)
    expect(await again.app.kotodama.list()).to.deep.equal([])
    expect(firings(row.id)).to.have.length(1)
  })

  it('the console lists and cancels the tasks of a runtime that is not running, from its rows', async () => {
    const h = await start()
    const profile = h.app.kotodama.config.profiles[0]
    const records = h.app.kotodama.recordsOf(profile, 'mock:514')!
    const now = Date.now()
    const task = (id: string, note: string) => ({
      id, conversation: 'group:room1', channel: 'group:room1', note, next: now + 2 * HOUR, who: { platform: 'mock', id: 'bob', name: 'Bob' }, asked: now, rev: 0,
    })
    const store = new RecordsTaskStore(records)
    await store.add(task('aaaaa', 'feed the cat'))
    await store.add(task('bbbbb', 'call mum'))
    expect(await h.app.kotodama.list()).to.deep.equal([])
    const l = captureListeners(h.app, registerSchedules)
    const view = await l.send('kotodama/schedules', 'neko', 'mock:514')
    expect(view.groups.flatMap((g: any) => g.tasks.map((t: any) => t.note))).to.have.members(['feed the cat', 'call mum'])
    expect(await l.send('kotodama/schedule-cancel', 'neko', 'mock:514', 'aaaaa')).to.deep.equal({ ok: true })
    expect((await h.app.database.get(TABLE as any, {})).map((r: any) => r.id)).to.deep.equal(['bbbbb'])
    expect(await h.app.kotodama.list()).to.deep.equal([])
  })
})
