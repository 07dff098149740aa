// The checks of `initiative` (SPEC §21) that the Schema cannot express, and the parsing of
// `activeHours` and `timezone` they share with the schedule (src/initiative/active-hours.ts).
import { knownTimeZone } from '../util/day'
import type { FieldCheck } from './section'

/** An `activeHours` window: minutes of the local day; `end <= start` wraps midnight ('20:00-02:00'). */
export interface HoursWindow {
  start: number
  end: number
}

const HOURS = /^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$/

/** 'HH:MM-HH:MM' (24:00 may end a window), or why not. */
export function parseActiveHours(text: unknown): HoursWindow | string {
  if (typeof text !== 'string') return "must be 'HH:MM-HH:MM'"
  const m = HOURS.exec(text)
  if (!m) return `"${text}" is not 'HH:MM-HH:MM' (e.g. '09:00-23:00', '20:00-02:00')`
  const [h1, m1, h2, m2] = m.slice(1).map(Number)
  if (h1 > 23 || m1 > 59 || h2 > 24 || m2 > 59 || (h2 === 24 && m2 > 0)) return `"${text}" names a time that does not exist`
  const start = h1 * 60 + m1
  const end = h2 * 60 + m2
  if (start === end || (start === 0 && end === 0)) return `"${text}" is an empty window`
  return { start, end }
}

const number = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
const wholeAtLeast = (n: number): FieldCheck => v => Number.isInteger(v) && (v as number) >= n ? undefined : `must be a whole number >= ${n}`

export const INITIATIVE_CHECKS: Readonly<Record<string, FieldCheck>> = {
  enabled: v => typeof v === 'boolean' ? undefined : 'must be true or false',
  idleMinutes: v => number(v) && v > 0 ? undefined : 'must be a number of minutes > 0',
  backoff: v => number(v) && v >= 1 ? undefined : 'must be a number >= 1 (each unanswered idle wake waits this many times longer)',
  maxIdleMinutes: v => number(v) && v > 0 ? undefined : 'must be a number of minutes > 0',
  jitter: v => number(v) && v >= 0 && v < 1 ? undefined : 'must be a number from 0 to below 1',
  activeHours: v => {
    const w = parseActiveHours(v)
    return typeof w === 'string' ? w : undefined
  },
  timezone: v => typeof v !== 'string' ? 'must be an IANA time zone name or empty'
    : knownTimeZone(v) ? undefined : `"${v}" is not a time zone this Node.js knows (an IANA name like Europe/Berlin, or empty for the host's)`,
  perDay: wholeAtLeast(1),
  stopAfterUnanswered: wholeAtLeast(1),
}
