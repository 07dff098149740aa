/** Runs tasks one after another, in the order they were queued; a failure does not block the next. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve()

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task)
    this.tail = result.then(() => {}, () => {})
    return result
  }

  /** Resolves when everything queued so far has settled. */
  idle(): Promise<void> {
    return this.tail.then(() => {})
  }
}
