// One turn at a time per conversation (SPEC §4.6): turns asked for while one runs are queued and
// start right after it as one (the first reason wins, every note is read: attention/gate.ts joinStarts).
import { joinStarts } from '../attention/gate'
import type { Logger } from '../util/logger'
import type { TurnRequest } from './turn-port'

export interface TurnRunnerDeps {
  key: string
  logger: Logger
  /** runs one turn (before it: the wait is over, the parts prepare) */
  run(req: TurnRequest): Promise<void>
  stopped(): boolean
  /** the conversation changed: a turn loop ended */
  ended(): void
}

export class TurnRunner {
  private running?: Promise<void>
  /** set before the loop's first line runs: a loop that ends at once (no turn wanted) ends unset */
  private looping = false
  private next: TurnRequest[] = []

  constructor(private deps: TurnRunnerDeps) {}

  get busy(): boolean {
    return this.looping
  }

  /** a turn waits for the running one */
  get queued(): boolean {
    return this.next.length > 0
  }

  start(req: TurnRequest): void {
    if (this.deps.stopped()) return
    this.next.push(req)
    if (this.looping) return
    this.looping = true
    this.running = this.loop()
  }

  /** Resolves when no turn runs (a failed one included). */
  settled(): Promise<void> {
    return this.running?.catch(() => {}) ?? Promise.resolve()
  }

  private async loop(): Promise<void> {
    while (this.next.length && !this.deps.stopped()) {
      const asked = this.next.splice(0)
      // each is asked once, when the turn would start (a part records that it started: SPEC §25)
      const wanted = asked.filter(req => {
        if (req.wanted?.() !== false) return true
        this.deps.logger.debug('conversation %s: a %s turn is no longer wanted', this.deps.key, req.reason)
        return false
      })
      if (!wanted.length) continue
      try {
        await this.deps.run(joinStarts(wanted))
      } catch (e) {
        // a failed turn does not drop the turns asked for behind it
        this.deps.logger.error('conversation %s: turn failed: %s', this.deps.key, (e as Error)?.stack ?? e)
      }
    }
    // stopped: what was still queued never starts
    this.next.length = 0
    this.looping = false
    this.deps.ended()
  }
}
