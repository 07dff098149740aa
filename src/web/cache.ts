// Search pages kept 15 minutes per runtime (SPEC §24), by provider, query and page: a repeated
// query costs no request and no money. Bounded: the oldest entries go first. A query asked again
// while its request runs waits for that request instead of sending another.
import type { Clock } from '../util/clock'
import type { SearchPage } from './types'

export const CACHE_TTL_MS = 15 * 60_000
export const CACHE_ENTRIES = 200

export class PageCache {
  private kept = new Map<string, { page: SearchPage; until: number }>()
  private asking = new Map<string, Promise<SearchPage>>()

  constructor(private clock: Clock, private max = CACHE_ENTRIES) {}

  /** The kept page of `key`, else `ask()`'s, kept when it answered. */
  async get(key: string, ask: () => Promise<SearchPage>): Promise<{ page: SearchPage; cached: boolean }> {
    const hit = this.kept.get(key)
    if (hit && hit.until > this.clock.now()) return { page: hit.page, cached: true }
    if (hit) this.kept.delete(key)
    const running = this.asking.get(key)
    if (running) return { page: await running, cached: true }
    const p = ask()
    this.asking.set(key, p)
    try {
      const page = await p
      this.kept.set(key, { page, until: this.clock.now() + CACHE_TTL_MS })
      for (const old of this.kept.keys()) {
        if (this.kept.size <= this.max) break
        this.kept.delete(old)
      }
      return { page, cached: false }
    } finally {
      this.asking.delete(key)
    }
  }

  clear(): void {
    this.kept.clear()
  }
}
