// Local time of an IANA zone through Intl (SPEC §21 `activeHours`, `timezone`): whether an instant
// is inside the window, and the next opening when it is not. DST-correct: the wall clock is read
// with Intl at each instant, never by adding a fixed offset (docs/initiative.md).
import type { HoursWindow } from './config'

const MINUTE = 60_000
const formats = new Map<string, Intl.DateTimeFormat>()

function format(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      ...zone ? { timeZone: zone } : {}, hourCycle: 'h23',
      year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    })
    formats.set(zone, f)
  }
  return f
}

/** The wall clock of `zone` ('' : the host's) at instant `t`. */
export interface Wall {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}

export function wallOf(t: number, zone: string): Wall {
  const w: Record<string, number> = {}
  for (const p of format(zone).formatToParts(new Date(t))) if (p.type !== 'literal') w[p.type] = Number(p.value)
  return { year: w.year, month: w.month, day: w.day, hour: w.hour % 24, minute: w.minute, second: w.second }
}

/** The local calendar day of `t`, 'YYYY-MM-DD' (perDay counts by it). */
export function dayOf(t: number, zone: string): string {
  const w = wallOf(t, zone)
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`
}

const offsetAt = (t: number, zone: string) => {
  const w = wallOf(t, zone)
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(t / 1000) * 1000
}

/**
 * The instant the wall clock of `zone` shows this date and minute of the day (day may overflow:
 * day 32 is the next month's first). A wall time skipped by DST gives the instant just after the gap.
 */
export function instantOf(year: number, month: number, day: number, minuteOfDay: number, zone: string): number {
  const wall = Date.UTC(year, month - 1, day, 0, minuteOfDay)
  let t = wall - offsetAt(wall, zone)
  t = wall - offsetAt(t, zone)
  if (shownAt(t, zone) === wall) return t
  // in a spring-forward gap no instant shows the wall time: the gap's end is the first one after it
  if (shownAt(t, zone) < wall) t += wall - shownAt(t, zone)
  for (let i = 0; i < 240 && shownAt(t - MINUTE, zone) >= wall; i++) t -= MINUTE
  return t
}

const shownAt = (t: number, zone: string) => {
  const w = wallOf(t, zone)
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute)
}

const minuteOf = (w: Wall) => w.hour * 60 + w.minute

export function inside(t: number, hours: HoursWindow, zone: string): boolean {
  const m = minuteOf(wallOf(t, zone))
  return hours.start < hours.end ? m >= hours.start && m < hours.end : m >= hours.start || m < hours.end
}

/** `t` when it is inside the window, else the window's next opening. */
export function nextOpening(t: number, hours: HoursWindow, zone: string): number {
  if (inside(t, hours, zone)) return t
  const w = wallOf(t, zone)
  // outside means before today's opening (a wrapped window's gap, or the morning), or after today's close
  const day = minuteOf(w) < hours.start ? w.day : w.day + 1
  const open = instantOf(w.year, w.month, day, hours.start, zone)
  if (open > t && inside(open, hours, zone)) return open
  // an opening inside a DST gap: look minute by minute after it (a gap is at most a few hours)
  for (let s = Math.max(open, t + MINUTE); s < t + 2 * 86_400_000; s += MINUTE) if (inside(s, hours, zone)) return s
  return open
}

/** The first instant of the local day after the one of `t`. */
export function nextDay(t: number, zone: string): number {
  const w = wallOf(t, zone)
  return instantOf(w.year, w.month, w.day + 1, 0, zone)
}
