// What the mind reads when a task fires (SPEC §25): the task, who asked and when, its note on one
// line (the runtime's line: nothing in the note starts a line of its own, SPEC §22), and how late.
import { wallTime } from '../util/day'
import { displayName, flattenLines, shownId } from '../util/transcript-text'
import type { Task } from './task'

/** a firing later than this says how late it is */
export const LATE_AFTER_MS = 60_000

/** '3 min', '2 h 5 min', '1 d 4 h' */
export function lateBy(ms: number): string {
  const min = Math.max(1, Math.round(ms / 60_000))
  const d = Math.floor(min / 1440)
  const h = Math.floor(min % 1440 / 60)
  const m = min % 60
  return d ? `${d} d ${h} h` : h ? `${h} h ${m} min` : `${m} min`
}

/** `[schedule #k3x9a, asked by alice (alice) on 2026-12-02 14:10: <note>]`, ending `; 3 min late]` when late. */
export function openingNote(task: Task, firedAt: number, zone: string): string {
  const who = `${displayName(task.who.name, task.who.id)} (${shownId(task.who.id)})`
  const late = firedAt - task.next > LATE_AFTER_MS ? `; ${lateBy(firedAt - task.next)} late` : ''
  return `[schedule #${task.id}, asked by ${who} on ${wallTime(task.asked, zone)}: ${flattenLines(task.note)}${late}]`
}
