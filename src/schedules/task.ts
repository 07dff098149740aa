// A task of SPEC §25 as it is stored: where it fires, what it says, when next, who asked. `rev`
// changes with every change, so instances sharing a database fire a task once (store.ts).

export interface TaskAsker {
  platform: string
  id: string
  name?: string
}

export interface Task {
  /** short, unique in its runtime: what `cancel` names ('k3x9a') */
  id: string
  /** the conversation's key */
  conversation: string
  /** the channel the turn is held in */
  channel: string
  note: string
  /** five fields; absent: a one-time task */
  cron?: string
  /** ms: when it fires next */
  next: number
  who: TaskAsker
  /** ms: when it was asked for */
  asked: number
  rev: number
}

/** A task as the tool lists it (SPEC §25): `next` as local time. */
export interface TaskView {
  id: string
  next: string
  note: string
  cron?: string
  who: { id: string; name: string }
}

/** the longest note: a reminder's words, not a document (the tool's schema says so too) */
export const NOTE_CHARS = 500

const str = (v: unknown, max: number): v is string => typeof v === 'string' && v.length > 0 && v.length <= max
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

/** A stored task, checked; undefined drops it (a hand-edited file, a row of an older shape). */
export function taskValue(v: any): Task | undefined {
  if (!v || typeof v !== 'object') return undefined
  if (!str(v.id, 32) || !str(v.conversation, 1024) || !str(v.channel, 1024) || typeof v.note !== 'string') return undefined
  if (!num(v.next) || !num(v.asked) || !Number.isInteger(v.rev)) return undefined
  const who = v.who
  if (!who || !str(who.platform, 64) || !str(who.id, 256)) return undefined
  const task: Task = {
    id: v.id, conversation: v.conversation, channel: v.channel, note: v.note.slice(0, NOTE_CHARS), next: v.next,
    who: { platform: who.platform, id: who.id, ...typeof who.name === 'string' ? { name: who.name } : {} }, asked: v.asked, rev: v.rev,
  }
  if (typeof v.cron === 'string' && v.cron) task.cron = v.cron
  return task
}

/** a short id: 5 base-36 characters (60 million), drawn again while taken */
export function newTaskId(taken: (id: string) => boolean, random: () => number): string {
  for (;;) {
    const id = Math.floor(random() * 36 ** 5).toString(36).padStart(5, '0')
    if (!taken(id)) return id
  }
}
