// The line each turn opens with for the model (SPEC §16 "Stable first", §27 "When it is"): the date,
// weekday and time the turn began, in budgets.timezone (the runtime's zone), and the zone's name. It is
// rendered from the turn entry's own time, so every later request repeats it unchanged, and the
// system prompt needs no clock at all.
import { wallTimeWithWeekday, zoneName } from '../../util/day'

/** `zone`: budgets.timezone ('' : the host's, named by its resolved IANA name) */
export function turnLine(at: number, zone: string): string {
  return `[now: ${wallTimeWithWeekday(at, zone)} (${zoneName(zone)})]`
}
