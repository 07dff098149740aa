// A runtime's trash (SPEC §22 "Nothing the owner keeps is lost by a member's word"): before a write
// removes or replaces a file of local://, its bytes are kept here, in the runtime home, out of
// local://'s reach: `<home>/trash/<day>/<n>-<name>` with a record `<n>.json` beside them.
//
// Decisions where the SPEC is silent:
// - An entry is kept `keepDays` days, then pruned (at start and daily, a batch at a time).
// - The trash does not count against memory's quotas, but keeps at most `trashBytes` in all: past
//   it the oldest entries are dropped first, with a log line; a single file larger than that cannot
//   be removed or replaced by write (too_large), so it is never lost either.
// - The caller serialises every call (memory's queue).
import { copyFile, mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Clock } from '../../util/clock'
import type { Logger } from '../../util/logger'
import { blobName, dayOf, parseRecord, RECORD_EXT, recordText, type TrashEntry, type TrashNote } from './entry'

export const TRASH_DIR = 'trash'
const DAY_MS = 86_400_000
/** entries read at load and kept at most (the oldest go past it) */
const MAX_ENTRIES = 5000
/** entries pruned in one batch, so writes waiting behind it are not held long */
export const PRUNE_BATCH = 200

export interface TrashLimits {
  keepDays: number
  trashBytes: number
}

export class Trash {
  /** oldest first; undefined until loaded */
  private entries?: TrashEntry[]
  private total = 0
  private seq = 0

  constructor(readonly dir: string, private limits: () => TrashLimits, private clock: Clock, private logger?: Logger) {}

  /** Newest first. */
  async list(): Promise<TrashEntry[]> {
    return [...await this.load()].reverse()
  }

  find(id: string): Promise<TrashEntry | undefined> {
    return this.load().then(list => list.find(e => e.id === id))
  }

  /** Where an entry's bytes are. */
  pathOf(e: TrashEntry): string {
    const [day, n] = e.id.split('/')
    return join(this.dir, day, blobName(n, e.rel))
  }

  /** Whether a file of `bytes` can be kept at all (a larger one: the write is refused). */
  fits(bytes: number): boolean {
    return bytes <= this.limits().trashBytes
  }

  /**
   * Keeps a file's bytes (from its path, or given) before a write loses them; throws the file
   * system's error when they cannot be kept, leaving nothing behind.
   */
  async keep(from: { path: string } | { data: Buffer }, bytes: number, note: TrashNote): Promise<TrashEntry> {
    const list = await this.load()
    await this.makeRoom(list, bytes)
    const at = this.clock.now()
    const n = `${at}-${this.seq++}`
    const entry: TrashEntry = { id: `${dayOf(at)}/${n}`, at, bytes, ...note }
    const blob = this.pathOf(entry)
    const record = join(this.dir, dayOf(at), n + RECORD_EXT)
    try {
      await mkdir(join(this.dir, dayOf(at)), { recursive: true })
      if ('path' in from) await copyFile(from.path, `${blob}.tmp`)
      else await writeFile(`${blob}.tmp`, from.data)
      await rename(`${blob}.tmp`, blob)
      await writeFile(`${record}.tmp`, recordText(entry))
      await rename(`${record}.tmp`, record)
    } catch (e) {
      await Promise.all([blob, `${blob}.tmp`, record, `${record}.tmp`].map(p => rm(p, { force: true }).catch(() => {})))
      throw e
    }
    list.push(entry)
    this.total += bytes
    return entry
  }

  /** Removes an entry (restored, pruned, or kept for a write that then failed). */
  async drop(e: TrashEntry): Promise<void> {
    const [day, n] = e.id.split('/')
    await rm(join(this.dir, day, n + RECORD_EXT), { force: true })
    await rm(this.pathOf(e), { force: true })
    const list = await this.load()
    const at = list.indexOf(e)
    if (at >= 0) {
      list.splice(at, 1)
      this.total -= e.bytes
    }
    // an emptied day folder goes too
    await rmdir(join(this.dir, day)).catch(() => {})
  }

  /** Drops up to PRUNE_BATCH entries older than keepDays; true when more are due. */
  async prune(): Promise<boolean> {
    const list = await this.load()
    const before = this.clock.now() - this.limits().keepDays * DAY_MS
    const due = list.filter(e => e.at <= before)
    for (const e of due.slice(0, PRUNE_BATCH)) await this.drop(e)
    if (due.length) this.logger?.info('trash %s: pruned %d entries older than %d days', this.dir, Math.min(due.length, PRUNE_BATCH), this.limits().keepDays)
    return due.length > PRUNE_BATCH
  }

  private async makeRoom(list: TrashEntry[], bytes: number): Promise<void> {
    const max = this.limits().trashBytes
    let dropped = 0
    while (list.length && (this.total + bytes > max || list.length >= MAX_ENTRIES)) {
      await this.drop(list[0])
      dropped++
    }
    if (dropped) this.logger?.warn('trash %s is full (%d bytes, memory.trashBytes): dropped its %d oldest entries', this.dir, max, dropped)
  }

  private async load(): Promise<TrashEntry[]> {
    if (this.entries) return this.entries
    const list: TrashEntry[] = []
    const days = (await readdir(this.dir).catch((): string[] => [])).filter(d => /^\d{4}-\d{2}-\d{2}$/.test(d)).sort()
    for (const day of days) {
      const names = await readdir(join(this.dir, day)).catch((): string[] => [])
      // a keep cut short by a crash leaves a temporary file: nothing refers to it
      await Promise.all(names.filter(x => x.endsWith('.tmp')).map(x => rm(join(this.dir, day, x), { force: true }).catch(() => {})))
      for (const name of names.filter(x => x.endsWith(RECORD_EXT))) {
        if (list.length >= MAX_ENTRIES) break
        const id = `${day}/${name.slice(0, -RECORD_EXT.length)}`
        const text = await readFile(join(this.dir, day, name), 'utf8').catch(() => '')
        const entry = parseRecord(id, text)
        if (entry) list.push(entry)
        else this.logger?.warn('trash %s: %s/%s is not a trash record; left alone', this.dir, day, name)
      }
    }
    // the entries were set while this load awaited (two first calls at once): keep the first
    if (this.entries) return this.entries
    list.sort((a, b) => a.at - b.at)
    this.entries = list
    this.total = list.reduce((sum, e) => sum + e.bytes, 0)
    return list
  }
}
