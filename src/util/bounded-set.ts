// A set that forgets its least recently added members past `max` (what was heard, warned about,
// made): lru-cache underneath, so kotodama has one eviction mechanism.
import { LRUCache } from 'lru-cache'

export class BoundedSet<T extends {}> {
  private members: LRUCache<T, true>

  constructor(readonly max: number) {
    this.members = new LRUCache<T, true>({ max })
  }

  get size(): number {
    return this.members.size
  }

  /** Adds `v` (again: it is now the newest); past `max` the oldest is forgotten. */
  add(v: T): this {
    this.members.set(v, true)
    return this
  }

  /** Whether `v` is a member; asking does not make it newer. */
  has(v: T): boolean {
    return this.members.has(v)
  }

  delete(v: T): boolean {
    return this.members.delete(v)
  }

  clear(): void {
    this.members.clear()
  }
}
