// Upkeep's book and runs of a runtime that is not running, read from its home for the console
// (SPEC §26). Reading never rewrites a file: one that cannot be read is reported with its path, and
// left for the runtime to set aside when it starts.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseKeyed } from '../util/keyed-file'
import { targetRel } from './apply'
import { memoryRel } from './placement'
import { byAge, type Proposal } from './proposal'
import { PROPOSALS_FILE } from './proposal-book'
import { proposalValue } from './proposal-value'
import type { RunReport } from './run-report'
import { STATE_FILE } from './state'

async function textAt(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8')
  } catch (e: any) {
    if (e?.code === 'ENOENT') return undefined
    throw new Error(`${path} could not be read (${e?.message ?? e})`)
  }
}

/** The stored proposals, oldest first; none without a book. Throws with the path and why when the book is not valid. */
export async function proposalsAtHome(home: string): Promise<Proposal[]> {
  const path = join(home, PROPOSALS_FILE)
  const text = await textAt(path)
  if (text === undefined) return []
  try {
    return [...parseKeyed(text, 'proposals', proposalValue).values()].sort(byAge)
  } catch (e: any) {
    throw new Error(`${path} is not valid (${e?.message ?? e})`)
  }
}

/** The last runs, newest last; none when upkeep never ran or its state is not valid (the runtime sets that one aside). */
export async function runsAtHome(home: string): Promise<RunReport[]> {
  const text = await textAt(join(home, STATE_FILE))
  try {
    const runs = text === undefined ? [] : JSON.parse(text)?.runs
    return Array.isArray(runs) ? runs.filter(r => r && typeof r.startedAt === 'number' && typeof r.reason === 'string') : []
  } catch {
    return []
  }
}

/** The text of the file a proposal changes, as it is now (a private chat's change: that person's private section); undefined when there is none. */
export function presentText(home: string, p: Proposal, platform: string): Promise<string | undefined> {
  const rel = memoryRel(p.url)
  if (rel === undefined) return Promise.resolve(undefined)
  return readFile(join(home, 'local', targetRel(rel, p.chat, platform)), 'utf8').catch((): undefined => undefined)
}
