// The proposals of one runtime (SPEC §26): `upkeep/proposals.json` in its home, written whole and
// atomically before a change is answered (a crash never loses a proposal the model was told of,
// nor leaves one half-recorded). Decided proposals are kept a year, at most MAX_DECIDED of them: their
// keys are what refuses a change proposed again.
import { rename } from 'node:fs/promises'
import { join } from 'node:path'
import { KeyedFile } from '../util/keyed-file'
import type { Logger } from '../util/logger'
import { byAge, TAKEN, type Proposal } from './proposal'
import { proposalValue } from './proposal-value'

export const PROPOSALS_FILE = 'upkeep/proposals.json'
const MAX_DECIDED = 5_000
const KEEP_DECIDED_MS = 365 * 86_400_000

export class BookNotWritten extends Error {
  constructor(path: string) {
    super(`the proposals could not be recorded: ${path} could not be written`)
  }
}

export class ProposalBook {
  private file: KeyedFile<Proposal>
  private byKey = new Map<string, Proposal>()
  private next = 1

  constructor(home: string, private logger: Logger) {
    this.file = new KeyedFile({ path: join(home, PROPOSALS_FILE), field: 'proposals', what: 'upkeep proposals', value: proposalValue, logger })
  }

  /** Reads the file; one that is not valid is set aside (its proposals may be mended by hand) and the book starts empty. */
  async load(now: number): Promise<void> {
    const problem = await this.file.load()
    if (problem) {
      const aside = `${this.file.path}.unreadable-${now}`
      await rename(this.file.path, aside).catch(() => {})
      this.file.map.clear()
      this.logger.warn('upkeep: %s %s; it is kept as %s and the proposals start empty', this.file.path, problem, aside)
    }
    for (const p of this.file.map.values()) {
      this.byKey.set(p.key, p)
      const n = Number(p.id.slice(1))
      if (Number.isInteger(n) && n >= this.next) this.next = n + 1
    }
    this.prune(now)
  }

  all(): Proposal[] {
    return [...this.file.map.values()].sort(byAge)
  }

  get(id: string): Proposal | undefined {
    return this.file.map.get(id)
  }

  /** The proposal of this change that keeps it from being proposed again (pending, applied or rejected). */
  taken(key: string): Proposal | undefined {
    const p = this.byKey.get(key)
    return p && TAKEN.has(p.state) ? p : undefined
  }

  /** How many were proposed since `since` (ms). */
  madeSince(since: number): number {
    let n = 0
    for (const p of this.file.map.values()) if (p.at >= since) n++
    return n
  }

  /** Records a new proposal (its id given here) on disk before it resolves; BookNotWritten when the disk refuses. */
  async add(p: Omit<Proposal, 'id'>): Promise<Proposal> {
    const made = { ...p, id: `u${this.next++}` } as Proposal
    await this.put(made, undefined)
    return made
  }

  /** Changes a proposal on disk before it resolves; BookNotWritten (and the proposal as it was) when the disk refuses. */
  async update(id: string, change: Partial<Omit<Proposal, 'id' | 'key'>>): Promise<Proposal> {
    const before = this.file.map.get(id)
    if (!before) throw new Error(`no proposal ${id}`)
    const after = { ...before, ...change }
    await this.put(after, before)
    return after
  }

  stop(): Promise<void> {
    return this.file.stop()
  }

  private async put(p: Proposal, before: Proposal | undefined): Promise<void> {
    const map = this.file.map
    map.set(p.id, p)
    this.byKey.set(p.key, p)
    if (await this.file.saved()) return
    // only if nothing changed it since (a later change is written with it, or fails with it)
    if (map.get(p.id) === p) {
      if (before) {
        map.set(p.id, before)
        this.byKey.set(before.key, before)
      } else {
        map.delete(p.id)
        if (this.byKey.get(p.key) === p) this.byKey.delete(p.key)
      }
    }
    throw new BookNotWritten(this.file.path)
  }

  /** Decided proposals older than a year, and past MAX_DECIDED the oldest decided ones, leave the book. */
  private prune(now: number): void {
    const decided = this.all().filter(p => p.state !== 'pending' && p.state !== 'applying')
    const drop = new Set(decided.filter(p => now - (p.decided?.at ?? p.at) > KEEP_DECIDED_MS))
    for (const p of decided.slice(0, Math.max(0, decided.length - MAX_DECIDED))) drop.add(p)
    if (!drop.size) return
    for (const p of drop) {
      this.file.map.delete(p.id)
      if (this.byKey.get(p.key) === p) this.byKey.delete(p.key)
    }
    this.file.changed()
  }
}
