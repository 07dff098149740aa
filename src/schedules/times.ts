// The times of SPEC §25: an `at` in the local time of `budgets.timezone` or an ISO time with its
// offset, a five-field cron read by croner in that zone (DST-correct: a time the clocks skip runs
// at the end of the gap, a time they repeat runs once), and a task's next time as the model reads it.
import { Cron } from 'croner'
import { instantOf, wallOf, zoneName } from '../util/day'

export interface TimeError {
  name: 'InvalidTime' | 'PastTime' | 'TooFrequent'
  message: string
}

const pad = (n: number) => String(n).padStart(2, '0')

/** 'YYYY-MM-DD HH:MM:SS' of `t` in `zone` ('' : the host's): `next` as the tool returns it. */
export function localTime(t: number, zone: string): string {
  const w = wallOf(t, zone)
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/
const EXAMPLE = "'2026-12-03 09:00' (local time) or '2026-12-03T09:00:00+08:00'"

/** The instant `text` names; a past one is PastTime (`now` counts as past: a task fires after it is asked). */
export function parseAt(text: string, zone: string, now: number): { at: number } | TimeError {
  const s = text.trim()
  let at: number | undefined
  const m = LOCAL.exec(s)
  if (m) {
    const [year, month, day, hour, minute] = m.slice(1, 6).map(Number)
    const second = Number(m[6] ?? 0)
    const valid = month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && hour <= 23 && minute <= 59 && second <= 59
    if (valid) at = earliest(instantOf(year, month, day, hour * 60 + minute, zone), zone) + second * 1000
  } else if (WITH_OFFSET.test(s)) {
    const t = Date.parse(s)
    if (Number.isFinite(t)) at = t
  }
  if (at === undefined) return { name: 'InvalidTime', message: `at ${JSON.stringify(clipped(s))} is not a time; write ${EXAMPLE}` }
  if (at <= now) return { name: 'PastTime', message: `${localTime(at, zone)} has passed (it is ${localTime(now, zone)} now)` }
  return { at }
}

const HOUR = 3_600_000
/** A wall time the clocks show twice (the hour DST gives back) is its first occurrence, as croner runs it. */
function earliest(t: number, zone: string): number {
  return localTime(t - HOUR, zone) === localTime(t, zone) ? t - HOUR : t
}

/** `t`'s wall clock in `zone` read as if it were UTC: differences are wall-clock durations */
function wallMs(t: number, zone: string): number {
  const w = wallOf(t, zone)
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate()
const clipped = (s: string) => s.length > 60 ? `${s.slice(0, 60)}…` : s

/** Made crons by zone and pattern: tasks share a few patterns, and a Cron holds its parsed fields. */
const crons = new Map<string, Cron>()
const MAX_CACHED = 1000

/** croner's reading of a five-field `expr` in `zone`; InvalidTime with croner's words when it is not one. */
export function cronOf(expr: string, zone: string): { cron: Cron } | TimeError {
  const s = expr.trim().replace(/\s+/g, ' ')
  const key = `${zone}\u0000${s}`
  const made = crons.get(key)
  if (made) return { cron: made }
  const fields = s ? s.split(' ').length : 0
  if (fields !== 5) {
    const message = `cron ${JSON.stringify(clipped(s))} has ${fields} fields; write five: minute hour day-of-month month day-of-week, e.g. '0 9 * * 1'`
    return { name: 'InvalidTime', message }
  }
  let cron: Cron
  try {
    cron = new Cron(s, { timezone: zoneName(zone), mode: '5-part', paused: true })
  } catch (e: any) {
    return { name: 'InvalidTime', message: `cron ${JSON.stringify(clipped(s))}: ${String(e?.message ?? e).replace(/^CronPattern: /, '')}` }
  }
  if (crons.size >= MAX_CACHED) crons.delete(crons.keys().next().value!)
  crons.set(key, cron)
  return { cron }
}

/** The first time of `cron` after `after` (ms); undefined when it has none (a 30th of February). */
export function nextRun(cron: Cron, after: number): number | undefined {
  return cron.nextRun(new Date(after))?.getTime()
}

/** runs looked at for the shortest interval: a year of them, or this many (an hourly cron's 83 days, DST changes within) */
const RUNS_LOOKED_AT = 2000
const YEAR = 366 * 86_400_000

/**
 * The first run of `cron` after `now`, or why it is refused: none at all (InvalidTime), or two runs
 * closer than `minMinutes` within the next year (TooFrequent: DST's shortened days count).
 */
export function firstRun(cron: Cron, expr: string, now: number, minMinutes: number, zone: string): { next: number } | TimeError {
  const first = nextRun(cron, now)
  if (first === undefined) return { name: 'InvalidTime', message: `cron ${JSON.stringify(clipped(expr))} never comes` }
  const key = `${zone}\u0000${minMinutes}\u0000${expr.trim()}`
  const known = verdicts.get(key)
  if (known) return known === true ? { next: first } : known
  const verdict = intervalVerdict(cron, expr, first, minMinutes, zone)
  if (verdicts.size >= MAX_CACHED) verdicts.delete(verdicts.keys().next().value!)
  verdicts.set(key, verdict)
  return verdict === true ? { next: first } : verdict
}

/** a cron's interval checked once per zone and bound (up to 100 ms for an hourly one: 2,000 runs) */
const verdicts = new Map<string, true | TimeError>()

function intervalVerdict(cron: Cron, expr: string, first: number, minMinutes: number, zone: string): true | TimeError {
  const min = minMinutes * 60_000
  let prev = first
  let prevWall = wallMs(first, zone)
  for (let i = 0; i < RUNS_LOOKED_AT && prev - first < YEAR; i++) {
    const t = nextRun(cron, prev)
    if (t === undefined) break
    // as the wall clock or the real one counts, whichever is longer: a weekly task is a week apart
    // across spring forward (167 h), an hourly one an hour apart in the repeated hour (0 on the wall)
    const wall = wallMs(t, zone)
    const gap = Math.max(wall - prevWall, t - prev)
    if (gap < min) {
      const apart = `fires ${Math.round(gap / 60_000)} min apart`
      return { name: 'TooFrequent', message: `cron ${JSON.stringify(clipped(expr))} ${apart}; repeating tasks fire at most every ${minMinutes} min` }
    }
    prev = t
    prevWall = wall
  }
  return true
}
