// Where upkeep is (SPEC §26): `upkeep/state.json` in the runtime home — since when it counts, when
// it last ran, how far into each conversation it has looked (a message number of recall's index),
// and its last runs. Written atomically after each conversation's step forward, so a crash redoes
// at most the chunk it was in (whose proposals are then refused as duplicates).
import { readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { atomicWrite } from '../util/atomic-write'
import type { Logger } from '../util/logger'
import type { RunReport } from './run-report'

export const STATE_FILE = 'upkeep/state.json'
const KEPT_RUNS = 30

export interface UpkeepState {
  /** a day before upkeep first started for this runtime: a conversation it never looked at counts from here */
  since: number
  /** when the last run started */
  lastRun?: number
  /** per conversation: the number of the first message not yet looked at */
  through: Record<string, number>
  /** the last runs, newest last */
  runs: RunReport[]
}

export class StateFile {
  readonly path: string
  state?: UpkeepState

  constructor(home: string, private logger: Logger) {
    this.path = join(home, STATE_FILE)
  }

  /** The state; undefined when upkeep never ran here (no file). A file that is not valid is set aside and counts as none. */
  async load(now: number): Promise<UpkeepState | undefined> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (e: any) {
      if (e?.code === 'ENOENT') return undefined
      throw e
    }
    try {
      const v = JSON.parse(text)
      if (typeof v?.since !== 'number' || !v.through || typeof v.through !== 'object') throw new Error('no since or through')
      const through: Record<string, number> = {}
      for (const [k, n] of Object.entries<unknown>(v.through)) if (Number.isInteger(n) && (n as number) >= 0) through[k] = n as number
      const runs = Array.isArray(v.runs) ? v.runs.slice(-KEPT_RUNS) : []
      this.state = { since: v.since, through, runs, ...typeof v.lastRun === 'number' ? { lastRun: v.lastRun } : {} }
      return this.state
    } catch (e: any) {
      const aside = `${this.path}.unreadable-${now}`
      await rename(this.path, aside).catch(() => {})
      this.logger.warn('upkeep: %s is not valid (%s); it is kept as %s and upkeep counts from now', this.path, e?.message ?? e, aside)
      return undefined
    }
  }

  async save(state: UpkeepState): Promise<void> {
    this.state = state
    state.runs = state.runs.slice(-KEPT_RUNS)
    await atomicWrite(this.path, JSON.stringify(state, null, 1))
  }
}
