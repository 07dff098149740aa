// Finding a message of a conversation's index by its platform id (docs/recall.md "Finding a
// message by its id"): the newest one with it wins. The live buffer answers from memory, a
// segment by one dictionary lookup of the id's term (id-term.ts); the older part of an index
// written before ids were terms is read back from the newest (id-scan.ts), and what was looked
// for there is remembered, a bounded number of ids, since that part never changes.
import { LRUCache } from 'lru-cache'
import type { LiveBuffer } from './live'
import type { Segment } from './segment'
import { scanForId } from './id-scan'

/** ids remembered of the older part: their message, or -1 for none */
const REMEMBERED = 1024

export class MessageIds {
  private older = new LRUCache<string, number>({ max: REMEMBERED })

  /** The number of the newest message whose id is `id`, or undefined. */
  find(live: LiveBuffer, segments: readonly Segment[], id: string): number | undefined {
    const local = live.newestWithId(id)
    if (local !== undefined) return live.from + local
    try {
      for (let i = segments.length - 1; i >= 0; i--) {
        const n = segments[i].newestWithId(id)
        if (n !== undefined) return n
      }
      return this.inOlder(segments, id)
    } finally {
      segments.forEach(s => s.release())
    }
  }

  /** Segments written before ids were terms are older than every one written since. */
  private inOlder(segments: readonly Segment[], id: string): number | undefined {
    let n = this.older.get(id)
    for (let i = segments.length - 1; n === undefined && i >= 0; i--) {
      const s = segments[i]
      if (s.idsFrom > s.from) n = scanForId(s, id, s.idsFrom - s.from)
    }
    this.older.set(id, n ?? -1)
    return n === undefined || n < 0 ? undefined : n
  }

  /** The index forgot everything. */
  forget(): void {
    this.older.clear()
  }
}
