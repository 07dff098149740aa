// Tasks in the runtime home's schedules.json (storage: files): the home lock keeps one instance on
// it, so the map in memory is the truth and each change is written whole (atomically) before it is
// answered. A change the disk refuses is taken back in memory and thrown.
import { join } from 'node:path'
import { readFile, rename } from 'node:fs/promises'
import { KeyedFile, parseKeyed } from '../util/keyed-file'
import type { Logger } from '../util/logger'
import { TaskStoreError, type TaskStore } from './store'
import { taskValue, type Task } from './task'

export const SCHEDULES_FILE = 'schedules.json'

export class FileTaskStore implements TaskStore {
  private file: KeyedFile<Task>

  constructor(home: string, private logger: Logger) {
    this.file = new KeyedFile({ path: join(home, SCHEDULES_FILE), field: 'tasks', what: 'schedules', value: taskValue, logger })
  }

  get where(): string {
    return this.file.path
  }

  /** An unreadable file is set aside (never written over: its tasks may be mended by hand) and the tasks start empty. */
  async load(): Promise<Task[]> {
    const path = this.file.path
    let text: string | undefined
    try {
      text = await readFile(path, 'utf8')
    } catch (e: any) {
      if (e?.code !== 'ENOENT') throw new TaskStoreError(`${path} could not be read (${e?.message ?? e})`)
    }
    if (text !== undefined) {
      try {
        parseKeyed(text, 'tasks', taskValue)
      } catch (e: any) {
        const aside = `${path}.unreadable-${Date.now()}`
        await rename(path, aside)
        this.logger.warn('schedules %s is not valid (%s); it is kept as %s and the tasks start empty', path, e?.message ?? e, aside)
      }
    }
    const problem = await this.file.load()
    if (problem) throw new TaskStoreError(`${path} ${problem}`)
    return [...this.file.map.values()]
  }

  async add(task: Task): Promise<void> {
    await this.change(task.id, task, 'add the task')
  }

  async fired(task: Task, next: number | undefined): Promise<boolean> {
    const had = this.file.map.get(task.id)
    if (!had || had.rev !== task.rev) return false
    await this.change(task.id, next === undefined ? undefined : { ...had, next, rev: had.rev + 1 }, 'record the firing')
    return true
  }

  async restore(task: Task, firedAs: Task | undefined): Promise<Task> {
    const back = { ...task, rev: (firedAs?.rev ?? task.rev) + 1 }
    await this.change(task.id, back, 'put the task back')
    return back
  }

  async remove(task: Task): Promise<boolean> {
    if (!this.file.map.has(task.id)) return false
    await this.change(task.id, undefined, 'remove the task')
    return true
  }

  stop(): Promise<void> {
    return this.file.stop()
  }

  /** Sets (or, undefined, deletes) one task and writes the file; on a refused write memory is as before. */
  private async change(id: string, task: Task | undefined, what: string): Promise<void> {
    const map = this.file.map
    const before = map.get(id)
    if (task) map.set(id, task)
    else map.delete(id)
    if (await this.file.saved()) return
    // only if nothing changed it since (a later change is written with it, or fails with it)
    if (map.get(id) === task) {
      if (before) map.set(id, before)
      else map.delete(id)
    }
    throw new TaskStoreError(`could not ${what}: ${this.file.path} could not be written`)
  }
}
