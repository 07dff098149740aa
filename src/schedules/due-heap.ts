// The soonest task of many (10,000 in a runtime, bench 27): a binary min-heap of (time, id) whose
// stale entries — a task fired, moved or cancelled since — are skipped when they come up.

interface Due {
  at: number
  id: string
}

export class DueHeap {
  private items: Due[] = []

  get size(): number {
    return this.items.length
  }

  push(at: number, id: string): void {
    const a = this.items
    a.push({ at, id })
    let i = a.length - 1
    while (i > 0) {
      const up = (i - 1) >> 1
      if (a[up].at <= a[i].at) break
      ;[a[up], a[i]] = [a[i], a[up]]
      i = up
    }
  }

  /** The soonest entry for which `current(id, at)` holds; stale ones on the way are dropped. */
  peek(current: (id: string, at: number) => boolean): Due | undefined {
    while (this.items.length && !current(this.items[0].id, this.items[0].at)) this.pop()
    return this.items[0]
  }

  pop(): Due | undefined {
    const a = this.items
    const top = a[0]
    const last = a.pop()
    if (a.length && last) {
      a[0] = last
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < a.length && a[l].at < a[m].at) m = l
        if (r < a.length && a[r].at < a[m].at) m = r
        if (m === i) break
        ;[a[m], a[i]] = [a[i], a[m]]
        i = m
      }
    }
    return top
  }

  clear(): void {
    this.items = []
  }
}
