// Whether a runtime has tasks, read without making it: after a restart (or when its bot comes
// online on this instance) the edge starts that runtime, so its tasks fire without a message.
import type { PartRecords } from '../part/records'
import { tasksAtHome } from './at-home'

export async function tasksAhead(home: string, records?: PartRecords): Promise<boolean> {
  try {
    return (await tasksAtHome(home, records)).length > 0
  } catch {
    // unreadable: the runtime says why when it starts
    return true
  }
}
