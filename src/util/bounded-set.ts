// A map and a set that forget their least recently set members past `max` (what was heard, warned
// about, made; a conversation's speakers). Built on Map's insertion order, so an instance costs what
// it holds: lru-cache preallocates arrays of `max` slots, right for the few large shared caches
// and too dear for one small bound per conversation or per index.

export class BoundedMap<K, V> {
  private members = new Map<K, V>()

  constructor(readonly max: number) {}

  get size(): number {
    return this.members.size
  }

  /** Sets `k` (again: it is now the newest); past `max` the oldest is forgotten. */
  set(k: K, v: V): this {
    this.members.delete(k)
    this.members.set(k, v)
    if (this.members.size > this.max) this.members.delete(this.members.keys().next().value as K)
    return this
  }

  /** The value of `k`; asking does not make it newer. */
  get(k: K): V | undefined {
    return this.members.get(k)
  }

  has(k: K): boolean {
    return this.members.has(k)
  }

  delete(k: K): boolean {
    return this.members.delete(k)
  }

  clear(): void {
    this.members.clear()
  }

  /** Oldest first. */
  entries(): IterableIterator<[K, V]> {
    return this.members.entries()
  }
}

export class BoundedSet<T> {
  private members: BoundedMap<T, true>

  constructor(readonly max: number) {
    this.members = new BoundedMap(max)
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
