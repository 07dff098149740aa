// One turn at a time per conversation (SPEC §4.6): a turn asked for while one runs is queued (the
// first reason wins; facts speak for themselves) and starts right after it.
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
  private next?: TurnRequest

  constructor(private deps: TurnRunnerDeps) {}

  get busy(): boolean {
    return !!this.running
  }

  /** a turn waits for the running one */
  get queued(): boolean {
    return !!this.next
  }

  start(req: TurnRequest): void {
    if (this.deps.stopped()) return
    if (this.running) {
      this.next ??= req
      return
    }
    this.running = this.loop(req)
  }

  /** Resolves when no turn runs (a failed one included). */
  settled(): Promise<void> {
    return this.running?.catch(() => {}) ?? Promise.resolve()
  }

  private async loop(first: TurnRequest): Promise<void> {
    let req: TurnRequest | undefined = first
    try {
      while (req && !this.deps.stopped()) {
        this.next = undefined
        if (req.wanted?.() === false) this.deps.logger.debug('conversation %s: a %s turn is no longer wanted', this.deps.key, req.reason)
        else await this.deps.run(req)
        req = this.next
      }
    } catch (e) {
      this.deps.logger.error('conversation %s: turn failed: %s', this.deps.key, (e as Error)?.stack ?? e)
    } finally {
      this.running = undefined
      this.deps.ended()
    }
  }
}
