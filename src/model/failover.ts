// Failover between models (SPEC §11): a step that fails as *unavailable* is tried on the next
// model of the first model's `fallback`; a model unavailable 3 times in a row is skipped for a
// while. The health state lives in the plugin instance (the service owns one ModelHealth).
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import type { ModelHandle } from './provider'
import { ContextSizes } from './context-size'
import { describeFailure, failureKind } from './failure'

export { failureKind }

const SKIP_AFTER = 3
const FIRST_COOLDOWN = 60_000
const MAX_COOLDOWN = 600_000

interface Health {
  failures: number
  cooldown: number
  skippedUntil: number
}

export class ModelHealth {
  private state = new Map<string, Health>()
  /** what each model's context holds, learned from its answers */
  readonly sizes: ContextSizes

  constructor(private clock: Clock, private logger: Logger) {
    this.sizes = new ContextSizes(logger)
  }

  private of(id: string): Health {
    let h = this.state.get(id)
    if (!h) this.state.set(id, h = { failures: 0, cooldown: 0, skippedUntil: 0 })
    return h
  }

  /** True while the model is skipped; says once when it is back. */
  skipped(id: string): boolean {
    const h = this.state.get(id)
    if (!h?.skippedUntil) return false
    if (this.clock.now() < h.skippedUntil) return true
    h.skippedUntil = 0
    this.logger.info('model "%s" is tried again after its cool-down', id)
    return false
  }

  succeeded(id: string): void {
    const h = this.state.get(id)
    if (h) Object.assign(h, { failures: 0, cooldown: 0, skippedUntil: 0 })
  }

  failed(id: string): void {
    const h = this.of(id)
    if (++h.failures < SKIP_AFTER || h.skippedUntil) return
    // each skip after a failed return doubles the pause; a success resets it
    h.cooldown = h.cooldown ? Math.min(h.cooldown * 2, MAX_COOLDOWN) : FIRST_COOLDOWN
    h.skippedUntil = this.clock.now() + h.cooldown
    this.logger.info('model "%s" was unavailable %d times in a row; skipped for %d s', id, h.failures, h.cooldown / 1000)
  }

  /** The first model and its fallbacks, in order, skipped ones left out (all of them if every one is skipped). */
  chain(first: ModelHandle, handle: (id: string) => ModelHandle | undefined): ModelHandle[] {
    const all = [first, ...(first.config.fallback ?? []).map(handle).filter((h): h is ModelHandle => !!h && h.config.id !== first.config.id)]
    const open = all.filter(h => !this.skipped(h.config.id))
    return open.length ? open : all.slice(0, 1)
  }
}

/** One request to one model: who was asked, whether it answered, how long it took. */
export interface Attempt<T> {
  handle: ModelHandle
  latencyMs: number
  result?: T
  error?: unknown
}

export interface FailoverPort {
  health: ModelHealth
  handle(id: string): ModelHandle | undefined
  /** every attempt that was not aborted by the conversation stopping */
  record(a: Attempt<unknown>): void
}

/**
 * Runs `call` on the first model, then on its fallbacks while the failure is *unavailable*.
 * Resolves with the answering attempt; throws the last error (with the model that raised it).
 * `failover: false`: the first model alone, and its health untouched (a judge's or an embedding's
 * failure says nothing about steps).
 */
export async function withFailover<T>(o: {
  port: FailoverPort
  first: ModelHandle
  clock: Clock
  logger: Logger
  key: string
  signal?: AbortSignal
  call: (h: ModelHandle) => PromiseLike<T>
  failover?: boolean
}): Promise<Attempt<T>> {
  const health = o.failover !== false
  const chain = health ? o.port.health.chain(o.first, id => o.port.handle(id)) : [o.first]
  for (let i = 0; ; i++) {
    const handle = chain[i]
    const start = o.clock.monotonic()
    try {
      const result = await o.call(handle)
      const done: Attempt<T> = { handle, latencyMs: Math.round(o.clock.monotonic() - start), result }
      if (health) o.port.health.succeeded(handle.config.id)
      o.port.record(done)
      return done
    } catch (error) {
      if (o.signal?.aborted) throw error
      const attempt: Attempt<T> = { handle, latencyMs: Math.round(o.clock.monotonic() - start), error }
      o.port.record(attempt)
      const kind = failureKind(error)
      if (kind === 'unavailable' && health) o.port.health.failed(handle.config.id)
      if (kind === 'invalid' || i + 1 >= chain.length) throw Object.assign(new FailedStep(error), { handle, latencyMs: attempt.latencyMs })
      const why = describeFailure(error, handle.config.timeoutMs)
      o.logger.warn('conversation %s: model "%s" is unavailable (%s); trying "%s"', o.key, handle.config.id, why, chain[i + 1].config.id)
    }
  }
}

/** The step's last error and the model that raised it. */
export class FailedStep extends Error {
  handle!: ModelHandle
  latencyMs?: number
  constructor(readonly error: unknown) {
    super('model call failed')
  }
}
