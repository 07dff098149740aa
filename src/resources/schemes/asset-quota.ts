// The bound on inbound media of one runtime home (SPEC §22 "Nothing the owner keeps is lost"):
// `attachment.maxAssetBytes` in all. Past it, the oldest assets not shown in the last
// `attachment.keepDays` days are evicted to make room; an asset that still would not fit is not
// kept. The sizes and "last shown" times live in one small index file (`kept.json`), written
// atomically and coalesced; the total is kept in memory, computed once when the store starts
// (the index, plus one listing of the folder for bytes a lost index write never named).
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { atomicWrite } from '../../util/atomic-write'
import type { Logger } from '../../util/logger'
import { UUIDV7 } from '../../util/uuidv7'

export const KEPT_FILE = 'kept.json'
const DAY_MS = 86_400_000
/** A showing is recorded at most this often per asset: "last shown" counts in days. */
const SHOWN_RESOLUTION_MS = 60_000

export interface AssetLimits {
  /** bytes of all kept assets together; 0: no bound */
  maxBytes: number
  /** an asset shown within this many days is never evicted */
  keepDays: number
}

interface Kept {
  bytes: number
  storedAt: number
  shownAt?: number
}

/** Deletes an asset's bytes and marks it evicted; told which asset and when. */
export type Evict = (id: string) => Promise<void>

export class AssetQuota {
  private kept?: Promise<Map<string, Kept>>
  private total = 0
  /** admissions one at a time: two arrivals never evict for the same room */
  private turn: Promise<unknown> = Promise.resolve()
  private saving?: Promise<void>
  private dirty = false

  constructor(
    private readonly dir: string,
    readonly limits: AssetLimits,
    private readonly o: { logger?: Logger; now?: () => number } = {},
  ) {}

  private now(): number {
    return this.o.now?.() ?? Date.now()
  }

  private load(): Promise<Map<string, Kept>> {
    this.kept ??= (async () => {
      const map = new Map<string, Kept>()
      const text = await readFile(join(this.dir, KEPT_FILE), 'utf8').catch(() => '')
      let saved: Record<string, Kept> = {}
      try { saved = text ? JSON.parse(text).assets ?? {} : {} } catch {
        this.o.logger?.warn('assets in %s: %s does not parse; sizes are read from the files again', this.dir, KEPT_FILE)
      }
      const names = await readdir(this.dir).catch((): string[] => [])
      for (const id of names) {
        if (!UUIDV7.test(id)) continue
        const known = saved[id]
        if (known && Number.isFinite(known.bytes)) { map.set(id, known); continue }
        // bytes a lost index write never named: counted, their shown time unknown
        const s = await stat(join(this.dir, id)).catch((): undefined => undefined)
        if (s?.isFile()) map.set(id, { bytes: s.size, storedAt: s.mtimeMs })
      }
      this.total = [...map.values()].reduce((n, k) => n + k.bytes, 0)
      return map
    })()
    return this.kept
  }

  /** Bytes kept now and the bound (0: none). */
  async used(): Promise<{ bytes: number; limit: number }> {
    await this.load()
    return { bytes: this.total, limit: this.limits.maxBytes }
  }

  /** Whether `bytes` could be kept, evicting every asset not shown lately (a guess made before fetching). */
  async couldKeep(bytes: number): Promise<boolean> {
    if (!this.limits.maxBytes) return true
    const kept = await this.load()
    let pinned = 0
    for (const k of kept.values()) if (!this.evictable(k)) pinned += k.bytes
    return pinned + bytes <= this.limits.maxBytes
  }

  private evictable(k: Kept): boolean {
    return (k.shownAt ?? -Infinity) < this.now() - this.limits.keepDays * DAY_MS
  }

  /**
   * Makes room for `bytes` of asset `id` and counts them, or refuses (false) when even evicting
   * every asset not shown lately would not make room; then nothing is evicted. `busy` ids
   * (being read now) are left alone.
   */
  admit(id: string, bytes: number, evict: Evict, busy: (id: string) => boolean = () => false): Promise<boolean> {
    const run = this.turn.then(() => this.admitNow(id, bytes, evict, busy))
    this.turn = run.catch(() => {})
    return run
  }

  private async admitNow(id: string, bytes: number, evict: Evict, busy: (id: string) => boolean): Promise<boolean> {
    const kept = await this.load()
    const max = this.limits.maxBytes
    const before = kept.get(id)
    if (before) this.total -= before.bytes
    if (max && this.total + bytes > max) {
      const oldest = [...kept].filter(([k, v]) => k !== id && this.evictable(v) && !busy(k)).sort((a, b) => a[1].storedAt - b[1].storedAt)
      let free = max - this.total
      const victims: string[] = []
      for (const [k, v] of oldest) {
        if (free >= bytes) break
        victims.push(k)
        free += v.bytes
      }
      if (free < bytes) {
        if (before) this.total += before.bytes
        return false
      }
      for (const k of victims) {
        await evict(k)
        this.total -= kept.get(k)!.bytes
        kept.delete(k)
      }
      this.o.logger?.info('assets in %s: evicted %d not shown in %d days to keep %d bytes', this.dir, victims.length, this.limits.keepDays, bytes)
    }
    kept.set(id, { bytes, storedAt: this.now(), ...(before?.shownAt ? { shownAt: before.shownAt } : {}) })
    this.total += bytes
    this.save()
    return true
  }

  /** Bytes counted by `admit` that were not stored after all. */
  async release(id: string): Promise<void> {
    const kept = await this.load()
    const k = kept.get(id)
    if (!k) return
    this.total -= k.bytes
    kept.delete(id)
    this.save()
  }

  /** The asset was shown (read, attached to a request, sent): kept `keepDays` from now. */
  async shown(id: string): Promise<void> {
    const kept = await this.load()
    const k = kept.get(id)
    const now = this.now()
    if (!k || (k.shownAt !== undefined && now - k.shownAt < SHOWN_RESOLUTION_MS)) return
    k.shownAt = now
    this.save()
  }

  /** Resolves when the index on disk holds what memory holds (or its last write failed). */
  async flushed(): Promise<void> {
    while (this.saving) await this.saving
  }

  /** One write at a time; changes during a write are written by one more. A failed write is logged and tried at the next change. */
  private save(): void {
    this.dirty = true
    if (this.saving) return
    this.saving = (async () => {
      while (this.dirty) {
        this.dirty = false
        const assets = Object.fromEntries(await this.load())
        try {
          await atomicWrite(join(this.dir, KEPT_FILE), JSON.stringify({ assets }))
        } catch (e: any) {
          // the bytes stay; a start lists the folder for what the index missed
          this.o.logger?.warn('assets in %s: %s not written (%s); tried again at the next change', this.dir, KEPT_FILE, e?.code ?? e?.message)
          break
        }
      }
    })().finally(() => { this.saving = undefined })
  }
}
