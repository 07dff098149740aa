// The one day of kotodama (SPEC §22 `budgets.timezone`): the usage book and initiative's perDay count
// the calendar day of the configured zone, not UTC's or the host's; an unknown zone is reported and
// the host's is used. Through the real plugin (plugin-mock, the fake model server, fake timers).
import { expect } from 'chai'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { checkConfig } from '../../src/runtime/config-of-parts'
import { runtimeHome } from '../../src/runtime/runtime'
import { dayOf, daysBefore, nextDay } from '../../src/util/day'
import { DEFAULT_BUDGETS } from '../../src/config/defaults'
import { fakeClock, type InstalledClock } from '../support/fake-clock'
import { Harness, NO_TYPING, call } from '../support/harness'

const MIN = 60_000
const utc = (s: string) => Date.parse(s)
const SHANGHAI = { ...DEFAULT_BUDGETS, timezone: 'Asia/Shanghai' }

describe('the day (util/day.ts)', () => {
  it('23:30 UTC is the next day in Asia/Shanghai; days before cross months; the next day starts at local midnight', () => {
    expect(dayOf(utc('2026-04-30T23:30:00Z'), 'Asia/Shanghai')).to.equal('2026-05-01')
    expect(dayOf(utc('2026-04-30T23:30:00Z'), 'UTC')).to.equal('2026-04-30')
    expect(daysBefore('2026-03-01', 1)).to.equal('2026-02-28')
    expect(nextDay(utc('2026-04-30T23:30:00Z'), 'Asia/Shanghai')).to.equal(utc('2026-05-01T16:00:00Z'))
  })

  it('an unknown budgets.timezone is reported with its path and the host\'s zone is used', () => {
    const checked = checkConfig({ dataDir: 'd', storage: 'files', models: [], codemode: {} as any, profiles: [], mcp: { servers: [] }, budgets: { ...DEFAULT_BUDGETS, timezone: 'Mars/Olympus' } })
    expect(checked.budgets.timezone).to.equal('')
    expect(checked.problems.map(p => p.path)).to.include('budgets.timezone')
    expect(checkConfig({ dataDir: 'd', storage: 'files', models: [], codemode: {} as any, profiles: [], mcp: { servers: [] }, budgets: SHANGHAI })
      .budgets.timezone).to.equal('Asia/Shanghai')
  })
})

describe('budgets.timezone through the plugin', () => {
  let h: Harness | undefined
  let clock: InstalledClock | undefined
  const installClock = fakeClock()
  afterEach(async () => {
    await h?.stop()
    h = undefined
  })

  it('a request at 23:30 UTC is counted in the usage book on the next day of Asia/Shanghai', async () => {
    clock = installClock({ toFake: ['Date'], now: utc('2026-05-01T23:30:00Z'), shouldAdvanceTime: true })
    h = await Harness.start({ budgets: SHANGHAI })
    h.server.script({ toolCalls: [call('finish', {})], usage: { prompt_tokens: 2000, completion_tokens: 1 } })
    await h.client('bob').receive('hello')
    await h.server.waitForRequests(1)
    await h.settled()
    await h.reload()
    const files = await readdir(join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'usage'))
    expect(files).to.deep.equal(['2026-05-02.json'])
  })

  it("initiative's perDay counts the day of Asia/Shanghai: a wake at 23:30 UTC is the next day's first", async () => {
    // backoff 10: no second wake before the evening's message
    const initiative = { enabled: true, idleMinutes: 60, backoff: 10, jitter: 0, activeHours: '00:00-24:00', timezone: '', perDay: 1, stopAfterUnanswered: 5 }
    h = await Harness.start({ budgets: SHANGHAI, profile: { typing: NO_TYPING, initiative } })
    clock = installClock({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: utc('2026-05-01T14:00:00Z'), shouldClearNativeTimers: true })
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive('anyone around?')
    await h.settled()
    // 15:00 UTC is 23:00 of May 1st in Shanghai: that day's one idle wake
    await clock.tickAsync(60 * MIN + 1000)
    await h.server.waitForRequests(1)
    await h.settled()
    await clock.tickAsync(7 * 60 * MIN + 30 * MIN - 1000)
    await h.client('alice', 'room1').receive('still there?')
    await h.settled()
    const [r] = await h.app.kotodama.list()
    const idle = (await r.status()).find(c => c.key.includes('room1'))?.idle as any
    // an hour after 22:30 UTC is 07:30 of May 2nd in Shanghai: a new day, perDay not used yet
    expect(idle?.at).to.equal(utc('2026-05-01T23:30:00Z'))
  })
})
