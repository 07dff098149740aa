// Pictures per person per local day (SPEC §24 `images.perUserDay`), counted by code and kept in
// `<home>/pictures/<day>.json`, so a restart does not give anyone a fresh allowance. A place is
// taken before the request and given back when it fails, so two draws at once cannot both pass
// the last place.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isMissing } from '../resources/fs-error'
import { atomicWrite } from '../util/atomic-write'
import type { Clock } from '../util/clock'
import { dayOf } from '../util/day'
import type { Logger } from '../util/logger'

export class DayCounts {
  private day = ''
  private counts = new Map<string, number>()
  private loading?: Promise<void>
  private writing = Promise.resolve()

  constructor(private o: { dir: string; zone: string; clock: Clock; logger: Logger }) {}

  /** Today's counts, read once a day from its file. */
  private today(): Promise<void> {
    const day = dayOf(this.o.clock.now(), this.o.zone)
    if (day !== this.day) {
      this.day = day
      this.counts = new Map()
      this.loading = this.read(day)
    }
    return this.loading!
  }

  private async read(day: string): Promise<void> {
    try {
      const data = JSON.parse(await readFile(join(this.o.dir, `${day}.json`), 'utf8'))
      for (const [who, n] of Object.entries<unknown>(data?.people ?? {})) {
        if (typeof n === 'number' && Number.isFinite(n) && n > 0) this.counts.set(who, n + (this.counts.get(who) ?? 0))
      }
    } catch (e: any) {
      if (!isMissing(e)) this.o.logger.warn('pictures of %s could not be read: %s', day, e?.message ?? e)
    }
  }

  /** Takes one of `who`'s `limit` places today; false when they are all taken. */
  async take(who: string, limit: number): Promise<boolean> {
    await this.today()
    const n = this.counts.get(who) ?? 0
    if (n >= limit) return false
    this.counts.set(who, n + 1)
    return true
  }

  /** A taken place whose picture was not made. */
  giveBack(who: string): void {
    const n = this.counts.get(who) ?? 0
    if (n > 1) this.counts.set(who, n - 1)
    else this.counts.delete(who)
  }

  /** Keeps today's counts on disk (after a picture was made). */
  write(): Promise<void> {
    const path = join(this.o.dir, `${this.day}.json`)
    const data = JSON.stringify({ day: this.day, people: Object.fromEntries(this.counts) })
    this.writing = this.writing.then(() => atomicWrite(path, data)).catch(e => this.o.logger.warn('pictures could not be counted on disk: %s', e?.message ?? e))
    return this.writing
  }

  settled(): Promise<void> {
    return this.writing
  }
}
