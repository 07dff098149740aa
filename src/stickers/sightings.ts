// How often each image was seen in the learning groups (SPEC §19 "learn"): by content hash, the
// messages that showed it within the window. Bounded: the least recently seen hashes are forgotten
// past `max`, and each hash keeps at most `times` sightings.
import { LRUCache } from 'lru-cache'

export interface SightingsOptions {
  /** seen this often (by different messages) ... */
  times: number
  /** ... within this many ms */
  windowMs: number
  /** hashes remembered at most */
  max?: number
}

export const MAX_SIGHTINGS = 10_000

interface Seen {
  ids: string[]
  ats: number[]
}

export class Sightings {
  private map: LRUCache<string, Seen>
  private readonly times: number

  constructor(private o: SightingsOptions) {
    this.times = Math.max(1, Math.floor(o.times))
    this.map = new LRUCache({ max: o.max ?? MAX_SIGHTINGS })
  }

  /** Message `id` showed image `hash` at `at`; true when it is now seen `times` times within the window. */
  see(hash: string, id: string, at: number): boolean {
    // set again: the least recently seen are forgotten first
    const s = this.map.get(hash) ?? { ids: [], ats: [] }
    this.map.set(hash, s)
    if (!s.ids.includes(id)) {
      s.ids.push(id)
      s.ats.push(at)
    }
    const from = at - this.o.windowMs
    for (let i = s.ats.length - 1; i >= 0; i--) {
      if (s.ats[i] < from || s.ats[i] > at + this.o.windowMs) {
        s.ids.splice(i, 1)
        s.ats.splice(i, 1)
      }
    }
    while (s.ids.length > this.times) {
      s.ids.shift()
      s.ats.shift()
    }
    return s.ids.length >= this.times
  }

  forget(hash: string): void {
    this.map.delete(hash)
  }

  get size(): number {
    return this.map.size
  }
}
