// Tasks with the same key run one after another in the order they were queued; different keys
// run side by side. A key's chain is forgotten once it drains, so idle keys cost nothing.
export class KeyedQueue {
  private tails = new Map<string, Promise<void>>()

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task)
    const tail = result.then(() => {}, () => {})
    this.tails.set(key, tail)
    tail.then(() => { if (this.tails.get(key) === tail) this.tails.delete(key) })
    return result
  }

  /** Resolves when everything queued so far under every key has settled. */
  async idle(): Promise<void> {
    while (this.tails.size) await Promise.all([...this.tails.values()])
  }
}
