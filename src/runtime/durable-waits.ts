// Durable waits (SPEC §15): a pending wait is a `wait` entry of the history with no `turn` after
// it; the runtime home's `waits.json` lists the conversations that have one, so a restart finds
// them without a message (docs/attention.md "Durable waits"). The history is the truth: the index
// only says where to look, and a wrong or missing one costs a late load, never a wrong wake.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { KeyedFile, parseKeyed } from '../util/keyed-file'
import type { Logger } from '../util/logger'
import type { Entry, Fact } from '../history/entries'

/** A wait as armed at the end of its turn: `at` is when. */
export interface StoredWait {
  at: number
  seconds?: number
  messages?: number
}

/** What a conversation tells the index about its own key. */
export interface WaitIndexPort {
  armed(wait: StoredWait): void
  /** fired, cancelled by a turn, or reset (not: stopped — a stopped wait is still pending) */
  ended(): void
  /** the index's copy, for a history tail too short to hold the wait entry */
  stored(): StoredWait | undefined
}

export const WAITS_FILE = 'waits.json'

/**
 * The wait still pending at the end of `entries` (a history tail) and the facts after it.
 * `more`: older entries exist that the tail does not hold; then, with neither a wait nor a turn
 * in the tail, the index's copy `stored` stands in. `fills`: whether a fact counts toward the wait
 * (SPEC §22: other bots' and ignored users' do not).
 */
export function pendingWait(entries: Entry[], more: boolean, stored?: StoredWait,
  fills: (fact: Fact) => boolean = () => true): { wait: StoredWait; seen: number } | undefined {
  let seen = 0
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]
    if (e.type === 'turn') return undefined
    // a wait wake-up the attention policies turned down still used the wait up (it fires once)
    if (e.type === 'declined' && e.reason.startsWith('wait:')) return undefined
    if (e.type === 'fact' && fills(e.fact)) seen++
    if (e.type === 'wait') return { wait: storedWait(e), seen }
  }
  return more && stored ? { wait: stored, seen } : undefined
}

function storedWait(w: StoredWait): StoredWait {
  return { at: w.at, ...(w.seconds !== undefined ? { seconds: w.seconds } : {}), ...(w.messages !== undefined ? { messages: w.messages } : {}) }
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
const isWait = (v: any): v is StoredWait => !!v && typeof v === 'object' && isNumber(v.at)
  && (v.seconds === undefined || isNumber(v.seconds)) && (v.messages === undefined || isNumber(v.messages))
  && (v.seconds !== undefined || v.messages !== undefined)

const waitValue = (w: unknown): StoredWait | undefined => isWait(w) ? storedWait(w) : undefined

/**
 * Whether the home's index may name pending waits, read without starting a runtime: true when it
 * lists any, and when it cannot be read as an index (the runtime says why and rewrites it).
 */
export async function mayHavePendingWaits(home: string): Promise<boolean> {
  let text: string
  try {
    text = await readFile(join(home, WAITS_FILE), 'utf8')
  } catch (e: any) {
    return e?.code !== 'ENOENT'
  }
  try {
    return parseKeyed(text, 'waits', waitValue).size > 0
  } catch {
    return true
  }
}

/** One runtime's index, kept in memory and written whole (util/keyed-file.ts). */
export class WaitIndex {
  private file: KeyedFile<StoredWait>

  constructor(readonly home: string, private logger: Logger) {
    this.file = new KeyedFile({ path: join(home, WAITS_FILE), field: 'waits', what: 'waits index', value: waitValue, logger })
  }

  get path(): string {
    return this.file.path
  }

  private get waits(): Map<string, StoredWait> {
    return this.file.map
  }

  /** Reads the index; a missing one is empty, a corrupt one is empty with a warning (and rewritten). */
  async load(): Promise<void> {
    const problem = await this.file.load()
    if (problem) this.logger.warn('waits index %s %s; pending waits there re-arm when their conversation next loads', this.path, problem)
  }

  keys(): string[] {
    return [...this.waits.keys()]
  }

  get(key: string): StoredWait | undefined {
    return this.waits.get(key)
  }

  set(key: string, wait: StoredWait): void {
    const next = storedWait(wait)
    const was = this.waits.get(key)
    if (was && JSON.stringify(was) === JSON.stringify(next)) return
    this.waits.set(key, next)
    this.file.changed()
  }

  delete(key: string): void {
    if (this.waits.delete(key)) this.file.changed()
  }

  /** The port one conversation uses. */
  portFor(key: string): WaitIndexPort {
    return { armed: w => this.set(key, w), ended: () => this.delete(key), stored: () => this.get(key) }
  }

  /** Resolves when every change so far is written (or could not be). */
  idle(): Promise<void> {
    return this.file.idle()
  }

  /** Writes what is pending; later changes stay in memory. */
  stop(): Promise<void> {
    return this.file.stop()
  }
}

/**
 * Loads, one at a time, each conversation the index names, so its wait re-arms; a key the runtime
 * does not own (the profile's mode changed) leaves the index, a load that fails is logged.
 */
export interface RestoreWaitsOptions {
  who: string
  logger: Logger
  stopped(): boolean
  owns(key: string): boolean
  load(key: string): Promise<unknown>
}

export async function restoreWaits(index: WaitIndex, o: RestoreWaitsOptions): Promise<void> {
  for (const key of index.keys()) {
    if (o.stopped()) return
    if (!o.owns(key)) {
      index.delete(key)
      continue
    }
    try {
      await o.load(key)
    } catch (e: any) {
      o.logger.warn('%s: the pending wait of conversation %s could not be restored: %s', o.who, key, e?.message ?? e)
    }
  }
}
