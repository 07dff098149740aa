// A task as asked (SPEC §25), checked before anything is stored: the platform, the bounds (first, so
// a program asking a thousand tasks meets them before any cron is read), then the time.
import type { SchedulesConfig } from './config'
import type { TaskIndex } from './task-index'
import { newTaskId, type Task, type TaskAsker } from './task'
import { cronOf, firstRun, parseAt, type TimeError } from './times'

export type ScheduleError = TimeError | { name: 'TooMany' | 'ProactiveForbidden' | 'NotFound' | 'NotStored'; message: string }

export interface NewTask {
  conversation: string
  channel: string
  who: TaskAsker
  note: string
  at?: string
  cron?: string
}

export interface NewTaskContext {
  config: SchedulesConfig
  zone: string
  now: number
  index: TaskIndex
  proactive: boolean
  random(): number
}

const PROACTIVE_FORBIDDEN = 'this platform lets the bot speak only in answer to a message, so nothing can fire later'

export function newTask(o: NewTask, c: NewTaskContext): Task | ScheduleError {
  const { config, zone, now, index } = c
  if (!c.proactive) return { name: 'ProactiveForbidden', message: PROACTIVE_FORBIDDEN }
  const open = index.openOf(o.conversation).length
  if (open >= config.perConversation) return { name: 'TooMany', message: `this chat has ${open} open tasks, the most allowed; cancel one first` }
  const mine = index.countOf(o.who)
  if (mine >= config.perUser) {
    return { name: 'TooMany', message: `${o.who.name ?? o.who.id} has ${mine} open tasks, the most one person may ask for; cancel one first` }
  }
  let next: number
  let cron: string | undefined
  if (o.cron !== undefined) {
    const made = cronOf(o.cron, zone)
    if (!('cron' in made)) return made
    const first = firstRun(made.cron, o.cron, now, config.minIntervalMinutes, zone)
    if (!('next' in first)) return first
    next = first.next
    cron = o.cron.trim().replace(/\s+/g, ' ')
  } else {
    const at = parseAt(o.at ?? '', zone, now)
    if (!('at' in at)) return at
    next = at.at
  }
  return {
    id: newTaskId(id => index.has(id), c.random), conversation: o.conversation, channel: o.channel, note: o.note,
    ...cron ? { cron } : {}, next, who: o.who, asked: now, rev: 0,
  }
}
