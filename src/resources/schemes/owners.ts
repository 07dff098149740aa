// The places an artifact or asset belongs to (SPEC §22: readable only in the conversation that made
// or received it): `<item>.owners` beside its sidecar, a JSON array of places (resources/scope.ts).
// No such file: the item was stored before owners were recorded, and stays everyone's.
import { readFile } from 'node:fs/promises'
import { LRUCache } from 'lru-cache'
import { atomicWrite } from '../../util/atomic-write'
import { KeyedQueue } from '../../util/keyed-queue'
import { isMissing } from '../fs-error'

/** places kept per item: past this the oldest goes (an item shown in that many conversations) */
const MAX_PLACES = 256

export class Owners {
  private queue = new KeyedQueue()
  /** false: no owners file */
  private known = new LRUCache<string, readonly string[] | false>({ max: 20000 })

  /** The item's places; undefined when none are recorded (everyone's). */
  async of(item: string): Promise<readonly string[] | undefined> {
    const hit = this.known.get(item)
    if (hit !== undefined) return hit || undefined
    const read = await this.load(item)
    this.known.set(item, read ?? false)
    return read
  }

  /**
   * A new item: its places from the start (none yet: [], readable by no turn until one is added);
   * two makers of the same bytes at once both stay. `unique`: no one else can know the item (a new id).
   */
  create(item: string, places: readonly string[], unique = false): Promise<void> {
    return this.queue.run(item, async () => {
      const had = unique ? [] : await this.of(item) ?? []
      await this.save(item, [...new Set([...had, ...places])].slice(-MAX_PLACES))
    })
  }

  /** `place` met the item (received it again, made the same bytes); an item of before stays everyone's. */
  add(item: string, place: string): Promise<void> {
    return this.queue.run(item, async () => {
      const now = await this.of(item)
      if (!now || now.includes(place)) return
      await this.save(item, [...now, place].slice(-MAX_PLACES))
    })
  }

  private async save(item: string, places: string[]): Promise<void> {
    await atomicWrite(item + '.owners', JSON.stringify(places))
    this.known.set(item, places)
  }

  private async load(item: string): Promise<readonly string[] | undefined> {
    try {
      const v = JSON.parse(await readFile(item + '.owners', 'utf8'))
      return Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : []
    } catch (e) {
      // unreadable: nobody's (never everyone's)
      return isMissing(e) ? undefined : []
    }
  }
}
