// A runtime's scheduled tasks as the console page lists them (SPEC §25): grouped by conversation,
// each group and each task soonest first; times as the mind reads them (budgets.timezone) and in ms.
import type { Task } from '../schedules/task'
import { localTime } from '../schedules/times'
import { zoneName } from '../util/day'

export interface ScheduledTaskView {
  id: string
  /** 'YYYY-MM-DD HH:MM:SS' in the view's zone */
  next: string
  nextAt: number
  note: string
  /** five fields; absent: a one-time task */
  cron?: string
  who: { id: string; name: string }
  asked: string
  askedAt: number
}

export interface ScheduleGroupView {
  conversation: string
  tasks: ScheduledTaskView[]
}

export interface SchedulesView {
  /** the zone the times are in (budgets.timezone, else the host's) */
  zone: string
  groups: ScheduleGroupView[]
}

/** The result of a cancel from the page: a task fired or cancelled meanwhile is NotFound. */
export type ScheduleCancelResult = { ok: true } | { ok: false; error: { name: string; message: string } }

export function schedulesView(tasks: readonly Task[], zone: string): SchedulesView {
  const groups = new Map<string, ScheduledTaskView[]>()
  for (const t of [...tasks].sort((a, b) => a.next - b.next || a.id.localeCompare(b.id))) {
    const list = groups.get(t.conversation) ?? []
    list.push({
      id: t.id, next: localTime(t.next, zone), nextAt: t.next, note: t.note, ...t.cron ? { cron: t.cron } : {},
      who: { id: t.who.id, name: t.who.name || t.who.id }, asked: localTime(t.asked, zone), askedAt: t.asked,
    })
    groups.set(t.conversation, list)
  }
  // a Map keeps insertion order: the group of the soonest task first
  return { zone: zoneName(zone), groups: [...groups].map(([conversation, list]) => ({ conversation, tasks: list })) }
}
