// When upkeep runs (SPEC §26): once a day at `upkeep.at`, local time of budgets.timezone. A time
// the clocks skip (spring forward) is the end of the gap, as instantOf gives it.
import { instantOf, wallOf } from '../util/day'

const minuteOf = (at: string) => Number(at.slice(0, 2)) * 60 + Number(at.slice(3, 5))

/** The last instant at or before `t` whose wall clock shows `at` (HH:MM) in `zone`. */
export function lastOccurrence(t: number, at: string, zone: string): number {
  const w = wallOf(t, zone)
  const today = instantOf(w.year, w.month, w.day, minuteOf(at), zone)
  return today <= t ? today : instantOf(w.year, w.month, w.day - 1, minuteOf(at), zone)
}

/** The first instant after `t` whose wall clock shows `at` (HH:MM) in `zone`. */
export function nextOccurrence(t: number, at: string, zone: string): number {
  const w = wallOf(t, zone)
  const today = instantOf(w.year, w.month, w.day, minuteOf(at), zone)
  return today > t ? today : instantOf(w.year, w.month, w.day + 1, minuteOf(at), zone)
}
