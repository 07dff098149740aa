// Tasks in Koishi's database (storage: database, docs/schedules.md): the runtime's rows of
// `kotodama_schedules`. Instances sharing the database agree through conditional writes on `rev`: a
// firing updates (or removes) the row only while it still has the rev it was read with, so of two
// instances that see a task come due, one fires it.
import type { PartRecords, RecordTable, RecordTableSpec } from '../part/records'
import { TaskStoreError, type TaskStore } from './store'
import { taskValue, type Task, type TaskAsker } from './task'

interface TaskRow {
  id: string
  conversation: string
  channel: string
  note: string
  /** '' : a one-time task */
  cron: string
  next: number
  who: TaskAsker
  asked: number
  rev: number
}

export const TASK_TABLE: RecordTableSpec<TaskRow> = {
  name: 'schedules',
  fields: { id: 'string', conversation: 'text', channel: 'text', note: 'text', cron: 'string', next: 'double', who: 'json', asked: 'double', rev: 'integer' },
  primary: 'id',
}

const rowOf = (t: Task): TaskRow => ({ ...t, cron: t.cron ?? '' })

export class RecordsTaskStore implements TaskStore {
  readonly shared = true
  private table: RecordTable<TaskRow>

  constructor(records: PartRecords) {
    this.table = records.table(TASK_TABLE)
  }

  get where(): string {
    return `table kotodama_${TASK_TABLE.name}`
  }

  async load(): Promise<Task[]> {
    const rows = await this.run('read the tasks', () => this.table.find())
    return rows.map(r => taskValue(r)).filter((t): t is Task => !!t)
  }

  async add(task: Task): Promise<void> {
    await this.run('add the task', () => this.table.create(rowOf(task)))
  }

  async fired(task: Task, next: number | undefined): Promise<boolean> {
    const where = { id: task.id, rev: task.rev }
    const n = await this.run('record the firing', () => next === undefined
      ? this.table.remove(where)
      : this.table.update(where, { next, rev: task.rev + 1 }))
    return n > 0
  }

  async restore(task: Task, firedAs: Task | undefined): Promise<Task> {
    const back = { ...task, rev: (firedAs?.rev ?? task.rev) + 1 }
    if (firedAs) await this.run('put the task back', () => this.table.update({ id: task.id, rev: firedAs.rev }, { next: back.next, rev: back.rev }))
    else await this.run('put the task back', () => this.table.create(rowOf(back)))
    return back
  }

  async remove(task: Task): Promise<boolean> {
    return await this.run('remove the task', () => this.table.remove({ id: task.id })) > 0
  }

  async stop(): Promise<void> {}

  private async run<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (e: any) {
      throw new TaskStoreError(`could not ${what} in ${this.where}: ${e?.message ?? e}`)
    }
  }
}
