// Whether an instant is inside `activeHours` (SPEC §21) in a zone, and the next opening when it is
// not. The wall clock of the zone is util/day.ts's, DST-correct (docs/initiative.md).
import type { HoursWindow } from './config'
import { instantOf, wallOf, type Wall } from '../util/day'

const MINUTE = 60_000

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
