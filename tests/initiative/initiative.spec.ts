// Idle wakes (SPEC §21, issue 31): the pure schedule, the active hours across DST, the part with
// a fake clock (three days, backoff, perDay, stop, reset, bot last, muted, a platform without
// proactive messages, a restart), an idle turn that finishes, the config's errors.
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { install } from '@sinonjs/fake-timers'
import { DEFAULT_INITIATIVE, type InitiativeConfig } from '../../src/initiative/config'
import { configSchema } from '../../src/runtime/config-of-parts'
import { checkConfig } from '../../src/runtime/config-of-parts'
import type { Entry } from '../../src/history/entries'
import { inside, nextOpening } from '../../src/initiative/active-hours'
import { dayOf, nextDay } from '../../src/util/day'
import { IdleWakes } from '../../src/initiative/idle-wakes'
import { nextIdleAt, rulesOf, type IdleState } from '../../src/initiative/schedule'
import { systemClock } from '../../src/util/clock'
import { Harness, call, NO_TYPING } from '../support/harness'
import { conversationSummaries } from '../../src/console-data/summary'
import { lastUserText } from '../support/fake-openai'
import { fakeClock, type InstalledClock } from '../support/fake-clock'

const H = 3_600_000
const MIN = 60_000
const utc = (s: string) => Date.parse(s)
const silent = { debug() {}, info() {}, warn() {}, error() {} } as any

describe('initiative: active hours (Intl, DST)', () => {
  const day = { start: 9 * 60, end: 23 * 60 }
  it('Europe/Berlin 2026-03-29 (spring forward): 09:00 is 07:00 UTC; a skipped opening moves past the gap', () => {
    expect(nextOpening(utc('2026-03-28T23:00:00Z'), day, 'Europe/Berlin')).to.equal(utc('2026-03-29T07:00:00Z'))
    expect(nextOpening(utc('2026-03-28T06:00:00Z'), day, 'Europe/Berlin')).to.equal(utc('2026-03-28T08:00:00Z'))
    // 02:30 does not exist that night: the window opens at 03:00 CEST (01:00 UTC)
    expect(nextOpening(utc('2026-03-28T23:30:00Z'), { start: 150, end: 240 }, 'Europe/Berlin')).to.equal(utc('2026-03-29T01:00:00Z'))
    expect(nextDay(utc('2026-03-29T12:00:00Z'), 'Europe/Berlin')).to.equal(utc('2026-03-29T22:00:00Z'))
    expect(inside(utc('2026-03-29T21:30:00Z'), day, 'Europe/Berlin')).to.equal(false)  // 23:30 CEST
  })
  it('Europe/Berlin 2026-10-25 (fall back): 09:00 is 08:00 UTC, the day is 25 hours', () => {
    expect(nextOpening(utc('2026-10-24T21:30:00Z'), day, 'Europe/Berlin')).to.equal(utc('2026-10-25T08:00:00Z'))
    expect(nextDay(utc('2026-10-24T23:00:00Z'), 'Europe/Berlin')).to.equal(utc('2026-10-25T23:00:00Z'))
    expect(dayOf(utc('2026-10-25T22:59:00Z'), 'Europe/Berlin')).to.equal('2026-10-25')
  })
  it('a window may wrap midnight', () => {
    const night = { start: 20 * 60, end: 2 * 60 }
    expect(inside(utc('2026-05-01T01:00:00Z'), night, 'UTC')).to.equal(true)
    expect(inside(utc('2026-05-01T03:00:00Z'), night, 'UTC')).to.equal(false)
    expect(nextOpening(utc('2026-05-01T03:00:00Z'), night, 'UTC')).to.equal(utc('2026-05-01T20:00:00Z'))
  })
})

const config = (o: Partial<InitiativeConfig> = {}): InitiativeConfig =>
  ({ ...DEFAULT_INITIATIVE, enabled: true, timezone: 'UTC', jitter: 0, ...o })

describe('initiative: the schedule', () => {
  const base: IdleState = { channel: 'g', humanAt: utc('2026-05-01T10:00:00Z'), human: 'Alice', unanswered: 0, today: 0 }
  const at = (s: IdleState, c = config(), r = 0.5) => (nextIdleAt(s, rulesOf(c), 0, () => r) as any).at
  it('idleMinutes after the human message, backoff from the last idle wake, up to maxIdleMinutes', () => {
    expect(at(base)).to.equal(utc('2026-05-01T14:00:00Z'))
    expect(at({ ...base, unanswered: 1, idleAt: utc('2026-05-01T14:00:00Z') }, config({ stopAfterUnanswered: 5 }))).to.equal(utc('2026-05-01T22:00:00Z'))
    const late = at({ ...base, unanswered: 3, idleAt: utc('2026-05-01T10:00:00Z') }, config({ stopAfterUnanswered: 5, activeHours: '00:00-24:00' }))
    expect(late).to.equal(utc('2026-05-02T10:00:00Z'))  // 4 h × 8 = 32 h, held at 24 h
  })
  it('jitter stays within ±jitter of the wait', () => {
    const c = config({ jitter: 0.1 })
    expect(at(base, c, 0)).to.equal(base.humanAt! + 0.9 * 4 * H)
    expect(at(base, c, 0.999999)).to.be.closeTo(base.humanAt! + 1.1 * 4 * H, 1000)
  })
  it('none when off, the bot spoke last, or after stopAfterUnanswered; perDay moves to the next day', () => {
    expect(nextIdleAt(base, rulesOf(config({ enabled: false })), 0, Math.random)).to.deep.equal({ none: 'off', why: 'off' })
    expect(nextIdleAt({ ...base, botLast: true }, rulesOf(config()), 0, Math.random)).to.deep.equal({ none: 'the bot spoke last', why: 'bot-last' })
    expect(nextIdleAt({ ...base, unanswered: 2 }, rulesOf(config()), 0, Math.random)).to.deep.include({ why: 'unanswered', n: 2 })
    expect(at({ ...base, day: '2026-05-01', today: 2 })).to.equal(utc('2026-05-02T09:00:00Z'))
  })
})

describe('initiative: the part, with a fake clock', function () {
  let clock: InstalledClock | undefined
  let home: string
  let parts: IdleWakes[] = []
  let requests: { channel: string; at: number; note: string }[]
  let muted = false
  let proactive = true
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'kotodama-idle-'))
    clock = install({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: utc('2026-05-01T00:00:00Z') })
    requests = []
    muted = false
    proactive = true
  })
  afterEach(async () => {
    for (const p of parts) await p.stop()
    parts = []
    clock?.uninstall()
    await rm(home, { recursive: true, force: true })
  })
  async function make(c = config()): Promise<IdleWakes> {
    const p = new IdleWakes({
      config: c, home, bot: 'onebot:1', clock: systemClock, logger: silent, random: () => 0.5,
      proactive: () => proactive, muted: () => muted,
      request: async (channel: string, req: { note?: string }) => { requests.push({ channel, at: Date.now(), note: req.note }) },
    })
    parts.push(p)
    await p.start()
    return p
  }
  const human = (name = 'Alice', at = Date.now()): Entry =>
    ({ type: 'fact', at, fact: { id: String(at), at, bot: 'onebot:1', channel: 'g', direct: false, user: { id: name, name }, content: 'hi' } })
  const botSends: Entry = { type: 'step', at: 0, turn: 1, messages: [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'send_message', input: {} }] }] }
  const until = async (iso: string) => { await clock!.tickAsync(utc(iso) - Date.now()) }
  const times = () => requests.map(r => new Date(r.at).toISOString().slice(5, 16))

  it('three days: 4 h, then 8 h later, then stopped until a human writes; a night wake waits for the morning', async () => {
    const p = await make()
    await until('2026-05-01T10:00:00Z')
    p.appended('g', [human()])
    await until('2026-05-02T20:00:00Z')
    expect(times()).to.deep.equal(['05-01T14:00', '05-01T22:00'])
    expect(requests[0].note).to.equal('[idle: quiet for 4 h 0 min; last: Alice]')
    expect(p.next('g')).to.have.property('none').that.matches(/2 unanswered/)
    p.appended('g', [human('Bob')])          // 20:00: due at 00:00, outside: 09:00
    await until('2026-05-04T00:00:00Z')
    expect(times().slice(2)).to.deep.equal(['05-03T09:00', '05-03T17:00'])
    expect(requests[2].note).to.equal('[idle: quiet for 13 h 0 min; last: Bob]')
  })

  it('perDay: the second wake of a day moves to the next morning', async () => {
    const p = await make(config({ perDay: 1 }))
    await until('2026-05-01T10:00:00Z')
    p.appended('g', [human()])
    await until('2026-05-03T00:00:00Z')
    expect(times()).to.deep.equal(['05-01T14:00', '05-02T09:00'])
  })

  it('a human message resets the schedule; none when the bot spoke last; none while muted', async () => {
    const p = await make()
    await until('2026-05-01T10:00:00Z')
    p.appended('g', [human()])
    await until('2026-05-01T15:00:00Z')
    p.appended('g', [human()])
    await until('2026-05-01T19:30:00Z')
    expect(times()).to.deep.equal(['05-01T14:00', '05-01T19:00'])
    p.appended('g', [human(), botSends])
    expect(p.next('g')).to.deep.equal({ none: 'the bot spoke last', why: 'bot-last' })
    await until('2026-05-02T23:00:00Z')
    expect(requests).to.have.length(2)
    p.appended('g', [human('Alice', utc('2026-05-02T23:00:00Z'))])
    muted = true
    expect(p.next('g')).to.deep.equal({ none: 'muted', why: 'muted' })
    await until('2026-05-03T20:00:00Z')
    expect(requests).to.have.length(2)
    muted = false
    await until('2026-05-03T21:00:00Z')
    expect(requests).to.have.length(3)
  })

  it("a platform that forbids proactive messages (QQ's official API) gets none", async () => {
    proactive = false
    const p = await make()
    p.appended('g', [human()])
    expect(p.next('g')).to.deep.equal({ none: 'the platform forbids proactive messages', why: 'not-proactive' })
    await until('2026-05-03T00:00:00Z')
    expect(requests).to.deep.equal([])
  })

  it('a restart: a wake due during downtime fires once after start, and only inside active hours', async () => {
    let p = await make()
    await until('2026-05-01T10:00:00Z')
    p.appended('g', [human()])
    await p.stop()
    parts = []
    clock!.setSystemTime(utc('2026-05-01T23:30:00Z'))   // 14:00 and 22:00 passed while down
    p = await make()
    await until('2026-05-02T08:59:00Z')
    expect(requests).to.deep.equal([])
    await until('2026-05-02T12:00:00Z')
    expect(times()).to.deep.equal(['05-02T09:00'])
    expect(p.next('g')).to.deep.equal({ at: utc('2026-05-02T17:00:00Z') })
  })
})

describe('initiative: config', () => {
  const base = (initiative: unknown) => ({
    models: [{ id: 'main', baseURL: 'http://127.0.0.1:1/v1', apiKey: '', model: 'm' }],
    profiles: [{ id: 'neko', model: 'main', claims: [{ bot: '*', channels: ['*'] }], initiative }],
  })
  it('defaults to off; bad fields are reported with their path and replaced by defaults', () => {
    expect(configSchema(base(undefined) as any).profiles[0].initiative).to.deep.equal(DEFAULT_INITIATIVE)
    const checked = checkConfig(configSchema(base({ enabled: true, activeHours: '25:00-7', timezone: 'Mars/Olympus', backoff: 0.5 }) as any))
    expect(checked.problems.map(p => p.path)).to.deep.equal(
      ['profiles[0].initiative.backoff', 'profiles[0].initiative.activeHours', 'profiles[0].initiative.timezone'])
    expect(checked.problems[0].message).to.match(/must be a number >= 1/)
    expect(checked.problems[2].message).to.match(/"Mars\/Olympus" is not a time zone/)
    expect(checked.profiles[0].initiative).to.deep.include({ enabled: true, backoff: 2, activeHours: '09:00-23:00', timezone: '' })
    const ok = checkConfig(configSchema(base({ enabled: true, activeHours: '20:00-02:00', timezone: 'Europe/Berlin' }) as any))
    expect(ok.problems).to.deep.equal([])
  })
})

describe('initiative: an idle turn through the plugin', function () {
  let h: Harness
  let clock: InstalledClock | undefined
  const installClock = fakeClock()
  afterEach(async () => { await h?.stop() })
  it('wakes a quiet group with its note; finish sends nothing; the status shows the next wake', async () => {
    const initiative = { enabled: true, idleMinutes: 10, jitter: 0, activeHours: '00:00-24:00', timezone: 'UTC' }
    h = await Harness.start({ profile: { typing: NO_TYPING, initiative } })
    clock = installClock({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.now(), shouldAdvanceTime: false, shouldClearNativeTimers: true })
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive('anyone around?')
    await h.settled()
    const [r] = await h.app.kotodama.list()
    const idle = (await r.status()).find(c => c.key.includes('room1'))?.idle as any
    expect(idle?.at).to.be.closeTo(Date.now() + 10 * MIN, 2000)
    // the console's conversation list shows it too
    const listed = (await conversationSummaries(r)).find(c => c.key.includes('room1'))
    expect(listed?.idle).to.deep.equal(idle)
    expect(h.server.requests).to.have.length(0)
    await clock.tickAsync(10 * MIN + 1000)
    await h.server.waitForRequests(1)
    await h.settled()
    expect(lastUserText(h.server.requests[0])).to.include('[idle: quiet for 10 min; last: alice]')
    expect(h.sent).to.deep.equal([])
  })
})
