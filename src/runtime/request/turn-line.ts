// The line each turn opens with for the model (SPEC §16 "Stable first"): the date and time the
// turn began, in the host's time zone. It is rendered from the turn entry's own time, so every
// later request repeats it unchanged, and the system prompt needs no clock at all.
import { formatTime } from '../../history/render-facts'

// formatTime shows the process's local time; this names that zone
export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone

export function turnLine(at: number): string {
  return `[now: ${formatTime(at)} (${TIME_ZONE})]`
}
