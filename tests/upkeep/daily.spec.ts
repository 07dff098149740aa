// When upkeep runs (SPEC §26), the Upkeep of a runtime alone with a fake clock and a real home: not
// at its first start; once a day at upkeep.at in budgets.timezone (Berlin, across spring forward);
// a day missed while down once at the next start, not twice; the console's and the command's run
// join the one under way. What a run does is the other specs'; here runs only say they ran.
import { expect } from 'chai'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { systemClock } from '../../src/util/clock'
import { DEFAULT_UPKEEP } from '../../src/upkeep/config'
import { lastOccurrence, nextOccurrence } from '../../src/upkeep/daily'
import { STATE_FILE } from '../../src/upkeep/state'
import { Upkeep } from '../../src/upkeep/upkeep'
import { fakeClock, type InstalledClock } from '../support/fake-clock'

const BERLIN = 'Europe/Berlin'
const utc = (s: string) => Date.parse(s)
const silent = { debug() {}, info() {}, warn() {}, error() {} } as any
// captured before any test installs the fake clock
const realSetTimeout = setTimeout

describe('upkeep: when it runs', function () {
  const installClock = fakeClock()
  let clock: InstalledClock
  let home: string
  let made: Upkeep[]

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'kotodama-upkeep-'))
    made = []
  })
  afterEach(async () => {
    for (const u of made) await u.stop()
    await rm(home, { recursive: true, force: true })
  })

  async function make(): Promise<Upkeep> {
    const u = new Upkeep({
      config: { ...DEFAULT_UPKEEP, enabled: true, at: '04:00' }, home, zone: BERLIN, clock: systemClock, logger: silent, platform: 'onebot',
      visible: () => true, apply: { platform: 'onebot', write: async () => { throw new Error('no writes here') }, textOf: async () => undefined },
      // a run that looks at nothing: each says when it ran
      runDeps: async () => 'no conversations in this test',
    })
    made.push(u)
    await u.start()
    return u
  }

  /** Lets the runs the timers started write their state (real file writes on a fake clock). */
  async function settle() {
    for (let i = 0; i < 20; i++) await new Promise(r => setImmediate(r))
    await new Promise(r => realSetTimeout(r, 30))
  }

  const state = async () => JSON.parse(await readFile(join(home, STATE_FILE), 'utf8'))

  it('the first start does not run, and counts from a day before it; then it runs at 04:00 Berlin each day', async () => {
    clock = installClock({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: utc('2027-03-26T12:00:00Z') })
    const u = await make()
    expect(u.runs()).to.deep.equal([])
    expect((await state()).since).to.equal(utc('2027-03-25T12:00:00Z'))
    // Saturday 04:00 CET is 03:00 UTC; Sunday is spring forward, 04:00 CEST is 02:00 UTC
    await clock.tickAsync(utc('2027-03-27T03:00:00Z') - Date.now())
    await settle()
    await clock.tickAsync(utc('2027-03-28T02:00:00Z') - Date.now())
    await settle()
    expect(u.runs().map(r => [r.reason, new Date(r.startedAt).toISOString()])).to.deep.equal([
      ['schedule', '2027-03-27T03:00:00.000Z'], ['schedule', '2027-03-28T02:00:00.000Z'],
    ])
    expect(u.runs()[0]).to.include({ stopped: 'failed', why: 'no conversations in this test' })
  })

  it('a day missed while down runs once at the next start; a start the same day after it ran does not run again', async () => {
    clock = installClock({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: utc('2027-01-10T10:00:00Z') })
    await mkdir(join(home, 'upkeep'), { recursive: true })
    await writeFile(join(home, STATE_FILE), JSON.stringify({ since: utc('2027-01-01T00:00:00Z'), lastRun: utc('2027-01-08T03:00:00Z'), through: {}, runs: [] }))
    const u = await make()
    await settle()
    expect(u.runs().map(r => r.reason)).to.deep.equal(['missed'])
    await u.stop()
    const again = await make()
    await settle()
    expect(again.runs().map(r => r.reason), 'read back, not run again').to.deep.equal(['missed'])
  })

  it('a run asked for while one runs joins it', async () => {
    clock = installClock({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: utc('2027-01-10T10:00:00Z') })
    const u = await make()
    const [a, b] = await Promise.all([u.run('console'), u.run('command')])
    expect(a).to.equal(b)
    expect(u.runs()).to.have.length(1)
  })

  it('occurrences: the last at or before, the next after, in the zone', () => {
    expect(new Date(lastOccurrence(utc('2027-03-28T01:59:00Z'), '04:00', BERLIN)).toISOString()).to.equal('2027-03-27T03:00:00.000Z')
    expect(new Date(nextOccurrence(utc('2027-03-27T03:00:00Z'), '04:00', BERLIN)).toISOString()).to.equal('2027-03-28T02:00:00.000Z')
    // 02:30 does not exist on spring forward: the end of the gap
    expect(new Date(nextOccurrence(utc('2027-03-27T12:00:00Z'), '02:30', BERLIN)).toISOString()).to.equal('2027-03-28T01:00:00.000Z')
  })
})
