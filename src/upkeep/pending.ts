// Whether a runtime that is not running has upkeep due (SPEC §26 "a day missed while kotodama was
// down runs once at start"; a change a crash left applying), read without making it: the edge
// then starts the runtime, and its own start decides in its zone. A day is a day here: the zone is
// the runtime's to know, and an early start only looks.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PROPOSALS_FILE } from './proposal-book'
import { STATE_FILE } from './state'

const DAY = 86_400_000

export async function upkeepDue(home: string, now = Date.now()): Promise<boolean> {
  const state = await readFile(join(home, STATE_FILE), 'utf8').then(JSON.parse).catch((): undefined => undefined)
  if (state && typeof state.since === 'number' && now - (state.lastRun ?? state.since) >= DAY) return true
  const book = await readFile(join(home, PROPOSALS_FILE), 'utf8').then(JSON.parse).catch((): undefined => undefined)
  return Object.values<any>(book?.proposals ?? {}).some(p => p?.state === 'applying')
}
