// The one "day" of kotodama (SPEC §22 `budgets.timezone`): the usage book's daily files, initiative's
// perDay, the stickers learned per day all count the calendar day of one IANA zone ('' : the host's).
// The wall clock is read with Intl at each instant, never by adding a fixed offset: DST-correct.

const formats = new Map<string, Intl.DateTimeFormat>()

function format(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23',
      year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    })
    formats.set(zone, f)
  }
  return f
}

/** Whether Intl knows the IANA time zone `name` ('' : the host's). */
export function knownTimeZone(name: string): boolean {
  if (!name) return true
  try {
    new Intl.DateTimeFormat('en', { timeZone: name })
    return true
  } catch {
    return false
  }
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
  if (!zone) {
    // the host's zone is the Date's own: no Intl call (fact lines render it for every message)
    const d = new Date(t)
    return { year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate(), hour: d.getHours(), minute: d.getMinutes(), second: d.getSeconds() }
  }
  const w: Record<string, number> = {}
  for (const p of format(zone).formatToParts(new Date(t))) if (p.type !== 'literal') w[p.type] = Number(p.value)
  return { year: w.year, month: w.month, day: w.day, hour: w.hour % 24, minute: w.minute, second: w.second }
}

const pad = (n: number) => String(n).padStart(2, '0')

/** 'YYYY-MM-DD' of a wall clock (or of a date whose day may overflow: day 32 is the next month's first). */
function dayName(year: number, month: number, day: number): string {
  const d = new Date(Date.UTC(year, month - 1, day))
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
}

/** The calendar day of `t` in `zone`, 'YYYY-MM-DD'. */
export function dayOf(t: number, zone: string): string {
  const w = wallOf(t, zone)
  return dayName(w.year, w.month, w.day)
}

/** The day `n` days before 'YYYY-MM-DD' (calendar arithmetic: no zone needed). */
export function daysBefore(day: string, n: number): string {
  const [year, month, date] = day.split('-').map(Number)
  return dayName(year, month, date - n)
}

/** 'YYYY-MM-DD HH:MM' of `t` in `zone`: how the model and the owner read a time. */
export function wallTime(t: number, zone: string): string {
  const w = wallOf(t, zone)
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}`
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']

/** 'YYYY-MM-DD Wed HH:MM' of `t` in `zone`: the present as a turn opens (the weekday for "last week", "the weekend"). */
export function wallTimeWithWeekday(t: number, zone: string): string {
  const w = wallOf(t, zone)
  const weekday = WEEKDAYS[new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay()]
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${weekday} ${pad(w.hour)}:${pad(w.minute)}`
}

/** the host's zone name, made again only when TZ changes (an Intl object per call costs a turn 0.2 ms, bench 6) */
let host: { tz: string | undefined; name: string } | undefined

/** The IANA name of `zone`; '' : the host's zone as Node.js resolves it (a Docker host's is often UTC). */
export function zoneName(zone: string): string {
  if (zone) return zone
  const tz = process.env.TZ
  if (host?.tz !== tz || !host) host = { tz, name: Intl.DateTimeFormat().resolvedOptions().timeZone }
  return host.name
}

const MINUTE = 60_000

const offsetAt = (t: number, zone: string) => {
  const w = wallOf(t, zone)
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(t / 1000) * 1000
}

const shownAt = (t: number, zone: string) => {
  const w = wallOf(t, zone)
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute)
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

/** The first instant of the day after the one of `t` in `zone`. */
export function nextDay(t: number, zone: string): number {
  const w = wallOf(t, zone)
  return instantOf(w.year, w.month, w.day + 1, 0, zone)
}

/** The day of `t` in `zone` and the instants it starts and ends (a cache of "which day" needs no Intl call per instant). */
export function dayAround(t: number, zone: string): { day: string; start: number; end: number } {
  const w = wallOf(t, zone)
  return { day: dayName(w.year, w.month, w.day), start: instantOf(w.year, w.month, w.day, 0, zone), end: nextDay(t, zone) }
}
