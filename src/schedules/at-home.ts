// The tasks of a runtime that is not running, read and cancelled where they are kept: its home's
// schedules.json (or, given its records, the database rows). Reading never rewrites the file: one
// that cannot be read is reported, and left for the runtime to say why when it starts.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { PartRecords } from '../part/records'
import { parseKeyed } from '../util/keyed-file'
import type { Logger } from '../util/logger'
import { FileTaskStore, SCHEDULES_FILE } from './file-store'
import { RecordsTaskStore } from './records-store'
import type { ScheduleError } from './schedules'
import { taskValue, type Task } from './task'

/** Every stored task; throws with the file's path and why when it cannot be read. */
export async function tasksAtHome(home: string, records?: PartRecords): Promise<Task[]> {
  if (records) return new RecordsTaskStore(records).load()
  const path = join(home, SCHEDULES_FILE)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e: any) {
    if (e?.code === 'ENOENT') return []
    throw new Error(`${path} could not be read (${e?.message ?? e})`)
  }
  try {
    return [...parseKeyed(text, 'tasks', taskValue).values()]
  } catch (e: any) {
    throw new Error(`${path} is not valid (${e?.message ?? e})`)
  }
}

/** Removes task `id` from the store; NotFound when it is not there, NotStored when the store refused. */
export async function cancelAtHome(home: string, id: string, logger: Logger, records?: PartRecords): Promise<{ ok: true } | ScheduleError> {
  let tasks: Task[]
  try {
    // read first without the store: a file that cannot be read is not rewritten empty
    tasks = await tasksAtHome(home, records)
  } catch (e: any) {
    return { name: 'NotStored', message: e.message }
  }
  const task = tasks.find(t => t.id === id)
  if (!task) return { name: 'NotFound', message: `no open task #${id}` }
  const store = records ? new RecordsTaskStore(records) : new FileTaskStore(home, logger)
  try {
    await store.load()
    if (!await store.remove(task)) return { name: 'NotFound', message: `no open task #${id}` }
    return { ok: true }
  } catch (e: any) {
    return { name: 'NotStored', message: `the task could not be removed (${e?.message ?? e}); it stays` }
  } finally {
    await store.stop()
  }
}
