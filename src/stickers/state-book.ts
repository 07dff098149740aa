// What the library knows of each sticker beyond its files (SPEC §19): approved, waiting or banned,
// uses and last use, where it came from. One JSON file in the sticker folder,
// `.kotodama-stickers.json`, keyed by the sha256 of the image (a renamed file keeps its state; a
// banned image stays banned under any name). A sticker without a record is one the owner dropped in:
// approved, no uses.
//
// The profile's runtimes share the folder, so each write reads the file first and applies only this
// process's changes to it, field by field (uses as increments): the last writer wins per field, and
// a use counted by another runtime is not lost. The runtimes of one process write the file one at a
// time (WRITES). The write is atomic (a temporary file and a rename), so a reader never sees half a
// file; two processes writing within the same few milliseconds may still lose one write (there is no
// lock across processes), which costs at most a use count or a state the owner sets again.
import { readFile, stat } from 'node:fs/promises'
import { atomicWrite } from '../util/atomic-write'
import { parseKeyed } from '../util/keyed-file'
import type { Logger } from '../util/logger'
import { KeyedQueue } from '../util/keyed-queue'
import { SerialQueue } from '../util/serial-queue'

export const STATE_FILE = '.kotodama-stickers.json'
const FIELD = 'stickers'

export type StickerState = 'approved' | 'waiting' | 'banned'

export interface StickerSource {
  /** dropped in by the owner, or learned from a group (SPEC §19 "Learn") */
  kind: 'owner' | 'learned'
  /** the claim key of the group it was seen in */
  channel?: string
  /** who sent it first */
  user?: string
  /** ms since the epoch */
  at?: number
}

export interface StickerRecord {
  /** the file's base name when last written (for people reading the file) */
  name?: string
  state?: StickerState
  uses?: number
  /** ms since the epoch */
  lastUsed?: number
  source?: StickerSource
}

/** the read, merge and write of a state file by one process's runtimes, one at a time per file (a chain forgotten once drained) */
const WRITES = new KeyedQueue()

const STATES = new Set(['approved', 'waiting', 'banned'])

function recordOf(v: unknown): StickerRecord | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined
  const r = v as Record<string, unknown>
  const out: StickerRecord = {}
  if (typeof r.name === 'string') out.name = r.name
  if (typeof r.state === 'string' && STATES.has(r.state)) out.state = r.state as StickerState
  if (typeof r.uses === 'number' && Number.isFinite(r.uses) && r.uses >= 0) out.uses = Math.floor(r.uses)
  if (typeof r.lastUsed === 'number' && Number.isFinite(r.lastUsed)) out.lastUsed = r.lastUsed
  const s = r.source as Record<string, unknown> | undefined
  if (s && typeof s === 'object' && (s.kind === 'owner' || s.kind === 'learned')) {
    out.source = { kind: s.kind }
    if (typeof s.channel === 'string') out.source.channel = s.channel
    if (typeof s.user === 'string') out.source.user = s.user
    if (typeof s.at === 'number') out.source.at = s.at
  }
  return out
}

/** One process's changes to a record not written yet; `removed` drops the record. */
interface Change {
  set: Partial<StickerRecord>
  uses: number
  removed?: boolean
}

export class StateBook {
  private records = new Map<string, StickerRecord>()
  private changes = new Map<string, Change>()
  private queue = new SerialQueue()
  private queued = false
  /** the file as last read or written: a change of it is another runtime's write */
  private seen = ''
  private warned = false
  private stopped = false

  constructor(readonly path: string, private logger: Logger) {}

  /** The record with this process's pending changes; undefined when there is none. */
  get(sha: string): StickerRecord | undefined {
    const c = this.changes.get(sha)
    if (c?.removed) return undefined
    const r = this.records.get(sha)
    if (!c) return r
    return { ...r, ...c.set, ...(c.uses ? { uses: (r?.uses ?? 0) + c.uses } : {}) }
  }

  set(sha: string, fields: Partial<StickerRecord>): void {
    const c = this.change(sha)
    c.removed = false
    Object.assign(c.set, fields)
    this.schedule()
  }

  use(sha: string, name: string, at: number): void {
    const c = this.change(sha)
    c.uses++
    Object.assign(c.set, { name, lastUsed: Math.max(at, this.records.get(sha)?.lastUsed ?? 0) })
    this.schedule()
  }

  remove(sha: string): void {
    this.changes.set(sha, { set: {}, uses: 0, removed: true })
    this.schedule()
  }

  private change(sha: string): Change {
    let c = this.changes.get(sha)
    if (!c || c.removed) this.changes.set(sha, c = { set: {}, uses: 0 })
    return c
  }

  /** Reads the file again when another runtime wrote it; true when the records changed. */
  refresh(): Promise<boolean> {
    return this.queue.run(async () => {
      const st = await stat(this.path).catch((): undefined => undefined)
      const mark = st ? `${st.size}:${st.mtimeMs}` : ''
      if (mark === this.seen) return false
      const before = JSON.stringify([...this.records])
      this.records = await this.read() ?? this.records
      this.seen = mark
      return JSON.stringify([...this.records]) !== before
    })
  }

  /** The file's records; undefined when it cannot be used (reported once). */
  private async read(): Promise<Map<string, StickerRecord> | undefined> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (e: any) {
      if (e?.code === 'ENOENT') return new Map()
      return this.problem(`could not be read (${e?.message ?? e})`)
    }
    try {
      const read = parseKeyed(text, FIELD, recordOf)
      this.warned = false
      return read
    } catch (e: any) {
      return this.problem(`is not valid (${e?.message ?? e}); the states known in memory are kept and written again on the next change`)
    }
  }

  private problem(why: string): undefined {
    if (!this.warned) this.logger.warn('stickers: the state file %s %s', this.path, why)
    this.warned = true
    return undefined
  }

  private schedule(): void {
    if (this.stopped || this.queued) return
    this.queued = true
    void this.queue.run(() => WRITES.run(this.path, () => this.write()))
  }

  private async write(): Promise<void> {
    this.queued = false
    const changes = this.changes
    this.changes = new Map()
    const disk = await this.read() ?? this.records
    const base = new Map(disk)
    for (const [sha, c] of changes) {
      if (c.removed) {
        base.delete(sha)
        continue
      }
      const r = { ...base.get(sha), ...c.set }
      if (c.uses) r.uses = (base.get(sha)?.uses ?? 0) + c.uses
      base.set(sha, r)
    }
    try {
      await atomicWrite(this.path, JSON.stringify({ [FIELD]: Object.fromEntries(base) }, null, 1))
      const st = await stat(this.path).catch((): undefined => undefined)
      this.seen = st ? `${st.size}:${st.mtimeMs}` : ''
      this.records = base
    } catch (e: any) {
      this.logger.warn('stickers: the state file %s could not be written: %s', this.path, e?.message ?? e)
      // kept for the next write (changes made since go after them)
      this.records = disk
      for (const [sha, c] of this.changes) {
        const old = changes.get(sha)
        changes.set(sha, old && !old.removed && !c.removed ? { set: { ...old.set, ...c.set }, uses: old.uses + c.uses } : c)
      }
      this.changes = changes
    }
  }

  /** Resolves when every change so far is written (or could not be). */
  idle(): Promise<void> {
    return this.queue.idle()
  }

  async stop(): Promise<void> {
    await this.queue.idle()
    this.stopped = true
  }
}
