// Whether a runtime home has an idle wake to come, read without making the runtime: after a restart
// the edge starts that runtime once its bot is online, so the wake fires without a message.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseKeyed } from '../util/keyed-file'
import { INITIATIVE_FILE, stateValue } from './idle-wakes'

export async function idleWakeAhead(home: string): Promise<boolean> {
  let text: string
  try {
    text = await readFile(join(home, INITIATIVE_FILE), 'utf8')
  } catch {
    return false
  }
  try {
    for (const s of parseKeyed(text, 'idle', stateValue).values()) if (s.due !== undefined) return true
    return false
  } catch {
    // unreadable: the runtime says why when it starts
    return true
  }
}
