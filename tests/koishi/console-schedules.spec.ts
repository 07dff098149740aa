// The console's schedules view (SPEC §25): the listeners the page calls list a runtime's open tasks
// grouped by conversation (soonest first, who asked and when) and cancel one, for a running runtime
// (its timer no longer fires the task) and for one that is not running (its home's schedules.json:
// the task does not fire once the runtime starts again).
import { expect } from 'chai'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { registerSchedules } from '../../src/koishi/console/schedules'
import { runtimeHome } from '../../src/runtime/runtime'
import { SCHEDULES_FILE } from '../../src/schedules/file-store'
import type { Task } from '../../src/schedules/task'
import { captureListeners } from '../support/console-listeners'
import { fakeClock } from '../support/fake-clock'
import { lastUserText } from '../support/fake-openai'
import { Harness, NO_TYPING, call } from '../support/harness'

const BOT = 'mock:514'
const MIN = 60_000
const utc = (s: string) => Date.parse(s)

describe('console: the schedules view', function () {
  this.timeout(20000)
  let h: Harness | undefined
  const installClock = fakeClock()
  afterEach(async () => {
    await h?.stop()
    h = undefined
  })

  /** `user` asks in `room`; the model calls schedule with `args`, then finishes */
  async function ask(user: string, room: string, args: object) {
    const before = h!.server.requests.length
    h!.server.script({ toolCalls: [call('schedule', args)] }, { toolCalls: [call('finish', {})] })
    await h!.client(user, room).receive('<at id="514"/> remind me, please')
    await h!.server.waitForRequests(before + 2)
    await h!.settled()
  }

  it('a running runtime: tasks the model added are listed by conversation; a cancelled one never fires', async () => {
    h = await Harness.start({ budgets: { timezone: 'Asia/Shanghai' }, profile: { typing: NO_TYPING } })
    // Wednesday 2026-12-02 14:00 in Shanghai
    const clock = installClock({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: utc('2026-12-02T06:00:00Z'), shouldClearNativeTimers: true })
    await ask('bob', 'room1', { at: '2026-12-02 18:00', note: 'water the plants' })
    await ask('alice', 'room2', { cron: '0 9 * * 1', note: 'post the weekly plan' })
    await ask('bob', 'room1', { at: '2026-12-02 15:00', note: 'stand-up' })
    const l = captureListeners(h.app, registerSchedules)
    expect(l.got.get('kotodama/schedules')!.authority).to.equal(4)
    expect(l.got.get('kotodama/schedule-cancel')!.authority).to.equal(4)
    const view = await l.send('kotodama/schedules', 'neko', BOT)
    expect(view.zone).to.equal('Asia/Shanghai')
    expect(view.groups.map((g: any) => [g.conversation, g.tasks.map((t: any) => [t.next, t.note, t.cron, t.who.id])])).to.deep.equal([
      ['group:room1', [['2026-12-02 15:00:00', 'stand-up', undefined, 'bob'], ['2026-12-02 18:00:00', 'water the plants', undefined, 'bob']]],
      ['group:room2', [['2026-12-07 09:00:00', 'post the weekly plan', '0 9 * * 1', 'alice']]],
    ])
    const [standUp, plants] = view.groups[0].tasks
    expect(standUp).to.include({ nextAt: utc('2026-12-02T07:00:00Z'), asked: '2026-12-02 14:00:00' })
    expect(standUp.who.name).to.be.a('string').and.not.equal('')
    expect(await l.send('kotodama/schedule-cancel', 'neko', BOT, standUp.id)).to.deep.equal({ ok: true })
    // a second cancel of the same task, or of one that never was: a structured NotFound
    expect(await l.send('kotodama/schedule-cancel', 'neko', BOT, standUp.id)).to.deep.include({ ok: false })
    expect((await l.send('kotodama/schedule-cancel', 'neko', BOT, 'zzzzz')).error.name).to.equal('NotFound')
    const after = await l.send('kotodama/schedules', 'neko', BOT)
    expect(after.groups[0].tasks.map((t: any) => t.id)).to.deep.equal([plants.id])
    // past 15:00 and 18:00: only the plants fire
    const fired = h.server.requests.length
    h.server.script({ toolCalls: [call('finish', {})] })
    await clock.tickAsync(utc('2026-12-02T10:01:00Z') - Date.now())
    await h.server.waitForRequests(fired + 1)
    await h.settled()
    const notes = h.server.requests.slice(fired).map(r => lastUserText(r).match(/\[schedule #\w+/)?.[0])
    expect(notes).to.deep.equal([`[schedule #${plants.id}`])
  })

  it('a runtime that is not running: its home\'s tasks listed and one cancelled; after a restart only the other fires', async () => {
    h = await Harness.start({ budgets: { timezone: 'UTC' }, profile: { typing: NO_TYPING } })
    const home = runtimeHome(h.dataDir, 'neko', BOT)
    const now = Date.now()
    const task = (id: string, room: string, note: string, next: number): Task => ({
      id, conversation: `group:${room}`, channel: `group:${room}`, note, next, who: { platform: 'mock', id: 'bob', name: 'Bob' }, asked: now - 60 * MIN, rev: 0,
    })
    // both came due while it was down
    const tasks = [task('aaaaa', 'room1', 'feed the cat', now - 2 * MIN), task('bbbbb', 'room2', 'call mum', now - MIN)]
    await mkdir(home, { recursive: true })
    await writeFile(join(home, SCHEDULES_FILE), JSON.stringify({ tasks: Object.fromEntries(tasks.map(t => [t.id, t])) }))
    expect(await h.app.kotodama.list()).to.deep.equal([])
    const l = captureListeners(h.app, registerSchedules)
    const view = await l.send('kotodama/schedules', 'neko', BOT)
    expect(view.groups.map((g: any) => [g.conversation, g.tasks.map((t: any) => [t.id, t.note, t.who])])).to.deep.equal([
      ['group:room1', [['aaaaa', 'feed the cat', { id: 'bob', name: 'Bob' }]]],
      ['group:room2', [['bbbbb', 'call mum', { id: 'bob', name: 'Bob' }]]],
    ])
    expect(await l.send('kotodama/schedule-cancel', 'neko', BOT, 'aaaaa')).to.deep.equal({ ok: true })
    expect(Object.keys(JSON.parse(await readFile(join(home, SCHEDULES_FILE), 'utf8')).tasks)).to.deep.equal(['bbbbb'])
    expect((await l.send('kotodama/schedule-cancel', 'neko', BOT, 'aaaaa')).error.name).to.equal('NotFound')
    expect(await h.app.kotodama.list(), 'the console started nothing').to.deep.equal([])
    // the edge starts the runtime for its task: only call mum fires, late
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.reload(h.config)
    await h.server.waitForRequests(1)
    await h.settled()
    expect(h.server.requests.map(r => lastUserText(r).match(/\[schedule #\w+/)?.[0])).to.deep.equal(['[schedule #bbbbb'])
  })

  it('a schedules file that cannot be read is reported, and left as it was', async () => {
    h = await Harness.start()
    const home = runtimeHome(h.dataDir, 'neko', BOT)
    await mkdir(home, { recursive: true })
    await writeFile(join(home, SCHEDULES_FILE), '{"tasks": ')
    const l = captureListeners(h.app, registerSchedules)
    const listed = await l.send('kotodama/schedules', 'neko', BOT).catch((e: Error) => e.message)
    expect(listed).to.include(SCHEDULES_FILE).and.include('is not valid')
    const cancelled = await l.send('kotodama/schedule-cancel', 'neko', BOT, 'aaaaa')
    expect(cancelled.error.name).to.equal('NotStored')
    expect(await readFile(join(home, SCHEDULES_FILE), 'utf8')).to.equal('{"tasks": ')
  })
})
