// The history of one conversation as rows of a database table (storage: database; SPEC §2, §10).
// The same promises as the JSONL store: entries keep their append order (each gets the next `seq`
// of its conversation, counted on from the highest seq stored, rows set aside included); a write
// is all or none; entries that could not be written stay in memory with their numbers and are
// written again (so a write the database did but did not confirm is only repeated, never
// doubled); a row that is not an entry is skipped with a warning naming table, conversation and
// seq; reset sets rows aside and deletes nothing. One instance serves a bot at a time: two writers
// of one conversation would number over each other (docs/storage.md).
import type { Entry } from './entries'
import type { Logger } from '../util/logger'
import type { HistoryBackend, HistoryTail } from './backend'
import type { ConversationRef, HistoryRow, HistoryTable } from './table'
import { entryProblem } from './entry-shape'
import { pairCalls } from './pair-calls'
import { SerialQueue } from '../util/serial-queue'
import { systemClock, type Clock } from '../util/clock'
import { WriteBehind } from './write-behind'

/** Rows per statement: large batches stay under drivers' statement limits. */
const BATCH = 200

interface PendingRow {
  seq?: number
  at: number
  entry: string
}

export class TableHistoryStore implements HistoryBackend {
  private queue = new SerialQueue()
  /** rows not yet stored, oldest first; coalesced and retried */
  private writes: WriteBehind<PendingRow>
  /** the highest seq stored or assigned; read from the table before the first write */
  private last?: number

  constructor(
    private table: HistoryTable,
    readonly ref: ConversationRef,
    private logger: Logger,
    private clock: Clock = systemClock,
  ) {
    this.writes = new WriteBehind({
      queue: this.queue,
      clock,
      logger,
      where: () => this.where,
      medium: 'database',
      write: (pending, count) => this.writeRows(pending, count),
    })
  }

  get where(): string {
    return `table ${this.table.name}, conversation ${this.ref.conversation} of profile ${this.ref.profile} on ${this.ref.bot}`
  }

  get stuck(): boolean {
    return this.writes.failing
  }

  /** A table does not tell a conversation's bytes without reading its rows. */
  async storedBytes(): Promise<undefined> {
    return undefined
  }

  get unwritten(): number {
    return this.writes.pending.length
  }

  async load(): Promise<Entry[]> {
    return (await this.loadTail(Infinity)).entries
  }

  async loadTail(maxEntries: number): Promise<HistoryTail> {
    const limit = Number.isFinite(maxEntries) ? maxEntries + 1 : undefined
    const rows = await this.table.newest(this.ref, limit)
    const more = rows.length > maxEntries
    const entries: Entry[] = []
    const ids = new Set<string>()
    for (const row of rows.slice(0, maxEntries).reverse()) {
      const entry = this.parse(row)
      const fixed = entry?.type === 'step' ? pairCalls(entry, ids) : undefined
      if (fixed) this.logger.warn('%s, seq %d: repaired a step of the history (%s)', this.where, row.seq, fixed.problem)
      if (entry && (!fixed || fixed.entry)) entries.push(fixed?.entry ?? entry)
    }
    return { entries, more }
  }

  private parse(row: HistoryRow): Entry | undefined {
    let problem: string | undefined
    let value: unknown
    try {
      value = JSON.parse(row.entry)
      problem = entryProblem(value)
    } catch {
      problem = 'not valid JSON'
    }
    if (!problem) return value as Entry
    this.logger.warn('%s, seq %d: skipped a row of the history (%s)', this.where, row.seq, problem)
    return undefined
  }

  append(entries: Entry[]): Promise<void> {
    if (!entries.length) return Promise.resolve()
    return this.writes.push(entries.map(e => ({ at: e.at, entry: JSON.stringify(e) })))
  }

  /** Writes the rows pending when the write starts; rows appended meanwhile go with the next one. */
  private async writeRows(pending: PendingRow[], count: number): Promise<void> {
    this.last ??= await this.table.lastSeq(this.ref)
    // numbered once, in append order: a retry writes the same rows again
    for (const row of pending.slice(0, count)) row.seq ??= ++this.last
    for (let left = count; left > 0;) {
      const batch = pending.slice(0, Math.min(BATCH, left)) as HistoryRow[]
      await this.table.write(this.ref, batch)
      pending.splice(0, batch.length)
      left -= batch.length
    }
  }

  /** Sets the live rows aside (kotodama.reset, migration); nothing is deleted. */
  reset(why = 'reset'): Promise<string | undefined> {
    return this.queue.run(async () => {
      this.writes.pending = []
      const at = this.clock.now()
      const moved = await this.table.setAside(this.ref, at)
      return moved ? `${this.where}: ${moved} rows set aside (${why} at ${at})` : undefined
    })
  }

  idle(): Promise<void> {
    return this.queue.idle()
  }

  async flushed(): Promise<void> {
    await this.writes.flushed()
  }
}
