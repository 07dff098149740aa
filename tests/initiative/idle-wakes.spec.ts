// Idle wakes' lifecycle and state (SPEC §21, issue 37 defects 3, 4 and 6): a wake queued behind a
// turn the bot answered in does not run; a changed active-hours window applies to a wake already
// drawn once the owner reloads; a wake the platform refused leaves the file; an unloaded
// conversation with nothing to come keeps no state.
import { expect } from 'chai'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { install } from '@sinonjs/fake-timers'
import { DEFAULT_INITIATIVE, type InitiativeConfig } from '../../src/initiative/config'
import { IdleWakes } from '../../src/initiative/idle-wakes'
import { INITIATIVE_FILE } from '../../src/initiative/idle-wakes'
import type { Entry } from '../../src/history/entries'
import { systemClock } from '../../src/util/clock'
import { idle } from '../support/app-waits'
import { fakeClock, type InstalledClock } from '../support/fake-clock'
import { Harness, NO_TYPING } from '../support/harness'
import { OneBotHarness, call } from '../support/onebot-harness'
import { lastUserText } from '../support/fake-openai'

const MIN = 60_000
const utc = (s: string) => Date.parse(s)
const silent = { debug() {}, info() {}, warn() {}, error() {} } as any

describe('initiative: an idle wake queued behind a turn', function () {
  let h: OneBotHarness | undefined
  afterEach(async () => { await h?.stop(); h = undefined })

  it('a 3-minute-old message with idleMinutes 1: its turn answers, and the idle wake queued behind it does not run', async () => {
    const initiative = { enabled: true, idleMinutes: 1, jitter: 0, activeHours: '00:00-24:00', timezone: 'UTC' }
    h = await OneBotHarness.start({ profile: { typing: NO_TYPING, initiative } })
    await h.online()
    // the mention's turn is slow to answer: the idle wake due at once waits behind it
    h.server.script({ delayMs: 300, toolCalls: [call('send_message', { messages: ['hi Alice'] })] })
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.napcat.privateMessage({ user: 2001, nickname: 'Alice', text: 'are you there?', time: Math.floor(Date.now() / 1000) - 180 })
    await h.napcat.waitForSent(1)
    await h.idle(200)
    await h.settled()
    // the bot spoke last: no idle turn (SPEC §21 "never")
    expect(h.server.requests.map(r => lastUserText(r).includes('[idle:'))).to.deep.equal([false])
  })
})

describe('initiative: a changed window after a reload', function () {
  let h: Harness | undefined
  let clock: InstalledClock | undefined
  const installClock = fakeClock()
  afterEach(async () => {
    await h?.stop()
    h = undefined
  })

  it('a wake held back at night runs once the owner opens the window and reloads', async () => {
    const initiative = { enabled: true, idleMinutes: 60, jitter: 0, activeHours: '09:00-23:00', timezone: 'UTC' }
    h = await Harness.start({ profile: { typing: NO_TYPING, initiative } })
    clock = installClock({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: utc('2026-05-01T22:30:00Z'), shouldClearNativeTimers: true })
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive('anyone around?')
    await h.settled()
    const [before] = await h.app.kotodama.list()
    const held = (await before.status()).find(c => c.key.includes('room1'))?.idle as any
    // 23:30 is outside 09:00-23:00: held until the morning
    expect(held?.at).to.equal(utc('2026-05-02T09:00:00Z'))
    const profile = { ...h.config.profiles[0], initiative: { ...initiative, activeHours: '00:00-24:00' } }
    await h.reload({ ...h.config, profiles: [profile] })
    // the runtime starts again with a message (of another group: it gets its own idle wake)
    await h.client('bob', 'room2').receive('hello?')
    await h.settled()
    expect(h.server.requests).to.have.length(0)
    h.server.script({ toolCalls: [call('finish', {})] })
    await clock.tickAsync(61 * MIN)
    await h.server.waitForRequests(2)
    await h.settled()
    const notes = h.server.requests.map(r => lastUserText(r).match(/\[idle: [^\]]*\]/)?.[0]).sort()
    expect(notes).to.deep.equal(['[idle: quiet for 1 h 0 min; last: alice]', '[idle: quiet for 1 h 0 min; last: bob]'])
  })
  it('after a reload an idle wake fires without a message: the edge starts the runtime whose home holds one', async () => {
    const initiative = { enabled: true, idleMinutes: 60, jitter: 0, activeHours: '00:00-24:00', timezone: 'UTC' }
    h = await Harness.start({ profile: { typing: NO_TYPING, initiative } })
    clock = installClock({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: utc('2026-05-01T10:00:00Z'), shouldClearNativeTimers: true })
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive('anyone around?')
    await h.settled()
    await h.reload(h.config)
    // nobody writes: the runtime is started for its wake alone (in the background: the clock moves once its wake is set)
    await h.until(async () => (await h.app.kotodama.list()).length === 1, 'the runtime started for its idle wake')
    await h.settled()
    h.server.script({ toolCalls: [call('finish', {})] })
    await clock.tickAsync(61 * MIN)
    await h.server.waitForRequests(1)
    await h.settled()
    expect(lastUserText(h.server.requests[0])).to.include('[idle: quiet for 1 h 0 min; last: alice]')
  })
})

describe('initiative: the state it keeps', function () {
  let clock: ReturnType<typeof install> | undefined
  let home: string
  let parts: IdleWakes[] = []
  let requests: string[]
  let proactive = true
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'kotodama-idle-'))
    clock = install({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: utc('2026-05-01T10:00:00Z') })
    requests = []
    proactive = true
  })
  afterEach(async () => {
    for (const p of parts) await p.stop()
    parts = []
    clock?.uninstall()
    await rm(home, { recursive: true, force: true })
  })
  const config = (o: Partial<InitiativeConfig> = {}): InitiativeConfig => ({ ...DEFAULT_INITIATIVE, enabled: true, timezone: 'UTC', jitter: 0, ...o })
  async function make(c = config()): Promise<IdleWakes> {
    const p = new IdleWakes({
      config: c, home, bot: 'onebot:1', clock: systemClock, logger: silent, random: () => 0.5,
      proactive: () => proactive, muted: () => false,
      request: async channel => { requests.push(channel) },
    })
    parts.push(p)
    await p.start()
    return p
  }
  const human = (key: string, at = Date.now()): Entry =>
    ({ type: 'fact', at, fact: { id: String(at), at, bot: 'onebot:1', channel: key, direct: false, user: { id: 'a', name: 'Alice' }, content: 'hi' } })
  const botSends: Entry = { type: 'step', at: 0, turn: 1, messages: [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'send_message', input: {} }] }] }
  const stored = async () => JSON.parse(await readFile(join(home, INITIATIVE_FILE), 'utf8')).idle

  it('creating it reads nothing and arms nothing: a wake due on disk waits for start', async () => {
    let p = await make(config({ idleMinutes: 60, activeHours: '00:00-24:00' }))
    p.appended('g', [human('g')])
    await p.stop()
    parts = []
    clock!.setSystemTime(utc('2026-05-01T12:00:00Z'))
    p = new IdleWakes({
      config: config({ idleMinutes: 60, activeHours: '00:00-24:00' }), home, bot: 'onebot:1', clock: systemClock, logger: silent,
      random: () => 0.5, proactive: () => true, muted: () => false, request: async channel => { requests.push(channel) },
    })
    parts.push(p)
    // real time for any file read to finish, then the clock past the due wake
    await idle(50)
    await clock!.tickAsync(MIN)
    expect(requests, 'nothing fires before start').to.deep.equal([])
    await p.start()
    await clock!.tickAsync(MIN)
    expect(requests).to.deep.equal(['g'])
  })

  it('a wake the platform refused when it came due leaves the file: a restart does not fire it', async () => {
    let p = await make(config({ idleMinutes: 60 }))
    p.appended('g', [human('g')])
    await p.written()
    expect((await stored()).g.due).to.equal(utc('2026-05-01T11:00:00Z'))
    proactive = false
    await clock!.tickAsync(61 * MIN)
    await p.written()
    expect(requests).to.deep.equal([])
    expect((await stored()).g, 'the refused wake is gone from initiative.json').to.not.have.property('due')
    await p.stop()
    parts = []
    proactive = true
    p = await make(config({ idleMinutes: 60 }))
    await clock!.tickAsync(60 * MIN)
    expect(requests, 'no wake until someone writes').to.deep.equal([])
  })

  it('an unloaded conversation with no wake to come keeps no state; one with a wake keeps it', async () => {
    const p = await make()
    p.appended('quiet', [human('quiet'), botSends])
    p.appended('waiting', [human('waiting')])
    p.unloaded('quiet')
    p.unloaded('waiting')
    expect(p.size).to.equal(1)
    expect(p.next('waiting')).to.have.property('at')
    await p.written()
    expect(Object.keys(await stored())).to.deep.equal(['waiting'])
    // the next human message makes the state again as it was
    p.appended('quiet', [human('quiet')])
    expect(p.next('quiet')).to.deep.equal({ at: utc('2026-05-01T14:00:00Z') })
  })
})
