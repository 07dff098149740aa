// At most `max` tasks at once; the others wait their turn in the order they came (a history pull
// after downtime must not make a hundred platform calls at once, SPEC §19).
export class Limiter {
  private active = 0
  private waiting: (() => void)[] = []
  /** the most tasks that ran at once */
  peak = 0

  constructor(readonly max: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    // a finishing task hands its slot to the next waiting one, so a newcomer cannot jump the line
    if (this.active < this.max) this.active++
    else await new Promise<void>(resolve => this.waiting.push(resolve))
    this.peak = Math.max(this.peak, this.active)
    try {
      return await task()
    } finally {
      const next = this.waiting.shift()
      if (next) next()
      else this.active--
    }
  }
}
