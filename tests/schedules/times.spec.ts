// The times of SPEC §25 (issue 41): `at` in budgets.timezone or with its own offset, five-field crons
// read by croner in that zone across DST (Europe/Berlin: 2027-03-28 spring forward, 2027-10-31 fall
// back), and the bounds a member's words meet before anything is stored.
import { expect } from 'chai'
import { cronOf, firstRun, localTime, nextRun, parseAt } from '../../src/schedules/times'

const BERLIN = 'Europe/Berlin'
const utc = (s: string) => Date.parse(s)
const NOW = utc('2027-03-26T12:00:00Z')

const cron = (expr: string, zone = BERLIN) => {
  const made = cronOf(expr, zone)
  if (!('cron' in made)) throw new Error(made.message)
  return made.cron
}

describe('schedules: times', () => {
  it('an `at` in local time of budgets.timezone, with or without seconds; an ISO time keeps its own offset', () => {
    expect(parseAt('2027-03-27 09:00', BERLIN, NOW)).to.deep.equal({ at: utc('2027-03-27T08:00:00Z') })   // CET, +01:00
    expect(parseAt('2027-03-29T09:00:30', BERLIN, NOW)).to.deep.equal({ at: utc('2027-03-29T07:00:30Z') })  // CEST, +02:00
    expect(parseAt('2027-03-27T09:00:00+08:00', BERLIN, NOW)).to.deep.equal({ at: utc('2027-03-27T01:00:00Z') })
    expect(parseAt('2027-03-27T09:00:00Z', BERLIN, NOW)).to.deep.equal({ at: utc('2027-03-27T09:00:00Z') })
  })

  it('a local time the clocks skip is the end of the gap; one they repeat is its first occurrence', () => {
    // 2027-03-28 02:30 does not exist in Berlin: 03:00 CEST
    expect(parseAt('2027-03-28 02:30', BERLIN, NOW)).to.deep.equal({ at: utc('2027-03-28T01:00:00Z') })
    // 2027-10-31 02:30 happens twice: the first, in CEST
    expect(parseAt('2027-10-31 02:30', BERLIN, NOW)).to.deep.equal({ at: utc('2027-10-31T00:30:00Z') })
  })

  it('words, impossible dates and offsets without a date are InvalidTime; a time past (or now) is PastTime', () => {
    for (const bad of ['tomorrow-ish', '', '2027-02-30 09:00', '2027-13-01 09:00', '2027-03-27 24:00', '09:00', '2027-03-27 09:00+08:00', 'x'.repeat(64)]) {
      const r = parseAt(bad, BERLIN, NOW) as any
      expect(r.name, bad).to.equal('InvalidTime')
      expect(r.message.length, bad).to.be.below(200)
    }
    expect(parseAt('2027-03-26 13:00', BERLIN, NOW)).to.deep.include({ name: 'PastTime' })   // 12:00 UTC is 13:00 CET: now
    expect((parseAt('2027-03-26 12:59', BERLIN, NOW) as any).message).to.equal('2027-03-26 12:59:00 has passed (it is 2027-03-26 13:00:00 now)')
  })

  it('five fields only, each checked: six fields, a bad minute and an empty cron are InvalidTime with the reason', () => {
    const six = cronOf('* * * * * *', BERLIN) as any
    expect(six.name).to.equal('InvalidTime')
    expect(six.message).to.include('has 6 fields; write five')
    expect((cronOf('61 9 * * *', BERLIN) as any).message).to.include('minute')
    expect((cronOf('', BERLIN) as any).name).to.equal('InvalidTime')
    expect((cronOf('0 9 * * 8-9', BERLIN) as any).name).to.equal('InvalidTime')
  })

  it('a daily 09:00 over three days across spring forward fires at 09:00 local each day (08:00, then 07:00 UTC)', () => {
    const c = cron('0 9 * * *')
    const runs: string[] = []
    for (let t = NOW, i = 0; i < 3; i++) runs.push(new Date(t = nextRun(c, t)!).toISOString())
    expect(runs).to.deep.equal(['2027-03-27T08:00:00.000Z', '2027-03-28T07:00:00.000Z', '2027-03-29T07:00:00.000Z'])
    expect(runs.map(r => localTime(Date.parse(r), BERLIN))).to.deep.equal(['2027-03-27 09:00:00', '2027-03-28 09:00:00', '2027-03-29 09:00:00'])
  })

  it('02:30 daily: the skipped night runs at 03:00, the repeated night once', () => {
    const c = cron('30 2 * * *')
    expect(nextRun(c, utc('2027-03-27T12:00:00Z'))).to.equal(utc('2027-03-28T01:00:00Z'))
    const fall = [nextRun(c, utc('2027-10-30T12:00:00Z'))!]
    fall.push(nextRun(c, fall[0])!)
    expect(fall.map(t => new Date(t).toISOString())).to.deep.equal(['2027-10-31T00:30:00.000Z', '2027-11-01T01:30:00.000Z'])
  })

  it('minIntervalMinutes: every 30 min is TooFrequent at 60; hourly passes, through a fall-back night too', () => {
    const r = firstRun(cron('*/30 * * * *'), '*/30 * * * *', NOW, 60, BERLIN) as any
    expect(r.name).to.equal('TooFrequent')
    expect(r.message).to.include('30 min apart; repeating tasks fire at most every 60 min')
    expect(firstRun(cron('0 * * * *'), '0 * * * *', NOW, 60, BERLIN)).to.deep.equal({ next: utc('2027-03-26T13:00:00Z') })
    expect(firstRun(cron('0 * * * *'), '0 * * * *', utc('2027-10-30T23:10:00Z'), 60, BERLIN)).to.deep.equal({ next: utc('2027-10-31T00:00:00Z') })
    expect(firstRun(cron('0 * * * *'), '0 * * * *', NOW, 61, BERLIN)).to.deep.include({ name: 'TooFrequent' })
    // a weekly plan at a one-week minimum: the week of spring forward is 167 hours, still a week on the wall
    expect(firstRun(cron('0 9 * * 1'), '0 9 * * 1', NOW, 10_080, BERLIN)).to.deep.equal({ next: utc('2027-03-29T07:00:00Z') })
  })

  it('a cron that never comes (30 February) is InvalidTime', () => {
    expect(firstRun(cron('0 9 30 2 *'), '0 9 30 2 *', NOW, 60, BERLIN)).to.deep.include({ name: 'InvalidTime' })
  })
})
