// Whether a runtime has tasks, read without making it: after a restart (or when its bot comes
// online on this instance) the edge starts that runtime, so its tasks fire without a message.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { PartRecords } from '../part/records'
import { parseKeyed } from '../util/keyed-file'
import { SCHEDULES_FILE } from './file-store'
import { RecordsTaskStore } from './records-store'
import { taskValue } from './task'

export async function tasksAhead(home: string, records?: PartRecords): Promise<boolean> {
  if (records) return (await new RecordsTaskStore(records).load()).length > 0
  let text: string
  try {
    text = await readFile(join(home, SCHEDULES_FILE), 'utf8')
  } catch {
    return false
  }
  try {
    return parseKeyed(text, 'tasks', taskValue).size > 0
  } catch {
    // unreadable: the runtime says why when it starts
    return true
  }
}
