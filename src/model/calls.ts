// The one way to call a model (issue 26): a turn's steps, the judge, vision, embeddings (and later
// speech, and native providers' calls) all go through ModelCalls, which counts every request in the
// usage book with its model, latency and tokens, records failures, and fails over where SPEC §11
// says. A new kind of call is a line in FAILS_OVER and a `run` with its own `call` and `tokens`;
// a turn's step is `run({ kind: 'step' })` like the others (runtime/turn.ts).
import type { LanguageModelUsage } from 'ai'
import type { LanguageModelV3Usage } from '@ai-sdk/provider'
import { stepUsage, type StepUsage } from '../usage/book'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import { FailedStep, ModelHealth, withFailover, type Attempt, type FailoverPort } from './failover'
import type { ModelHandle } from './provider'
import { countedModel, type CountUsage, type Swap } from './counted-model'
import { BudgetExceeded, type BudgetGate, type Payer } from '../contract/budget'
import { costOf } from '../usage/cost'
import { currentPayer } from './payer-scope'

/**
 * Whether a kind of call tries the first model's `fallback` when it is unavailable (docs/providers.md
 * "Which calls fail over"): a step and a vision question do; the judge does not (it has 1,500 ms,
 * and no answer is a no), nor embeddings (another model's vectors live in another space). Speech
 * does, both ways (SPEC §20): another server hears or speaks the same. A picture does not (SPEC §24):
 * another model draws another picture.
 */
export const FAILS_OVER = { step: true, vision: true, judge: false, embedding: false, transcription: true, speech: true, image: false } as const

export type CallKind = keyof typeof FAILS_OVER

/** Whether a kind of call goes to budgets.fallback (a chat model) past a budget, or is held (docs/cost.md). */
const SWITCHES_PAST_BUDGET: Record<CallKind, boolean> = {
  step: true, judge: true, vision: true, embedding: false, transcription: false, speech: false, image: false,
}

/** The tokens a server reported for one request. */
export type Tokens = Omit<StepUsage, 'model' | 'latencyMs'>

/** Where the calls are counted (the usage book). */
export interface UsageSink {
  /** `cost`: a priced request's own (priced()), else the book prices the tokens */
  record(model: string, u: StepUsage | undefined, ok: boolean, requests?: number, cost?: number): void
}

/** A paid request that is no model call (a web search, SPEC §24): counted under `label` at `cost`. */
export interface PricedSpec<T> {
  /** the usage book's key, e.g. 'web:searxng' */
  label: string
  /** per request, in the unit of models[].price; 0: free */
  cost: number
  call(): Promise<T>
  /** who pays; absent: the running turn's payer */
  payer?: Payer
}

export interface CallSpec<T> {
  kind: CallKind
  /** the model asked first: an id of `models`, or its handle */
  model: string | ModelHandle
  call(h: ModelHandle): PromiseLike<T>
  /** what the answer says it used */
  tokens(result: T): Tokens | undefined
  /** the caller's stop: an attempt it aborted is not counted */
  signal?: AbortSignal
  /** whose call it is, for the log */
  key?: string
  /** who pays (SPEC §22); absent: the running turn's payer (payer-scope.ts), else only all/profile */
  payer?: Payer
}

/** What judge, vision and recall see of the calls. */
export type CallPort = Pick<ModelCalls, 'run' | 'handle' | 'embed' | 'priced'>

/** What a turn's steps use: the counted call with failover, the models' health (context sizes), the budget's reply. */
export type StepCalls = Pick<ModelCalls, 'run' | 'health' | 'heldReply'>

/** An id that names no `models` entry. */
export class UnknownModel extends Error {
  constructor(readonly id: string) {
    super(`model "${id}" is not configured`)
  }
}

/** A LanguageModelV3 answer's usage (a step, the judge) as tokens. */
export const stepTokens = (u: LanguageModelV3Usage | undefined): Tokens => {
  const { model: _, latencyMs: __, ...t } = stepUsage('', 0, u)
  return t
}

/** generateText's usage (vision) as tokens. */
export function textTokens(u: LanguageModelUsage | undefined): Tokens {
  const out: Tokens = {}
  const set = (k: keyof Tokens, v: unknown) => { if (typeof v === 'number' && Number.isFinite(v)) out[k] = v }
  set('promptTokens', u?.inputTokens)
  set('completionTokens', u?.outputTokens)
  set('reasoningTokens', u?.outputTokenDetails?.reasoningTokens ?? u?.reasoningTokens)
  set('cachedTokens', u?.inputTokenDetails?.cacheReadTokens ?? u?.cachedInputTokens)
  return out
}

export class ModelCalls {
  readonly health: ModelHealth
  /** handles whose `embed` is counted, one per configured handle */
  private counted = new WeakMap<ModelHandle, ModelHandle>()
  /** the same, their language model counted too (viewHandle) */
  private viewed = new WeakMap<ModelHandle, ModelHandle>()

  constructor(private o: {
    models: Map<string, ModelHandle>; usage: UsageSink; clock: Clock; logger: Logger; health?: ModelHealth
    /** budgets (SPEC §22): checked before each request, charged after it */
    gate?: BudgetGate
  }) {
    this.health = o.health ?? new ModelHealth(o.clock, o.logger)
  }

  /**
   * The model `id` as other plugins' tools and schemes get it (the runtime's view): its requests
   * and its `embed` counted here; undefined when no entry has that id.
   */
  viewHandle(id: string): ModelHandle | undefined {
    const raw = this.o.models.get(id)
    if (!raw) return undefined
    let h = this.viewed.get(raw)
    if (!h) {
      const count: CountUsage = (ok, latencyMs, u, served = id) => {
        const tokens = u ? stepTokens(u) : undefined
        this.o.usage.record(served, { model: served, latencyMs, ...tokens }, ok)
        if (ok && tokens) this.charge(currentPayer(), served, tokens)
      }
      this.viewed.set(raw, h = { ...this.handle(id)!, model: countedModel(raw.model, this.o.clock, count, () => this.viewSwap()) })
    }
    return h
  }

  /** The model `id`, its `embed` counted here; undefined when no entry has that id. */
  handle(id: string): ModelHandle | undefined {
    const raw = this.o.models.get(id)
    if (!raw?.embedding) return raw
    let h = this.counted.get(raw)
    if (!h) this.counted.set(raw, h = { ...raw, embed: (values, signal) => this.embed(id, values, signal) })
    return h
  }

  private count(a: Attempt<unknown>, tokens: Tokens | undefined, payer: Payer | undefined): void {
    const id = a.handle.config.id
    this.o.usage.record(id, { model: id, latencyMs: a.latencyMs, ...tokens }, !a.error)
    if (!a.error && tokens) this.charge(payer, id, tokens)
  }

  /** A request's cost at its model's price goes to the budgets; a model without a price costs them nothing. */
  private charge(payer: Payer | undefined, id: string, tokens: Tokens): void {
    const cost = this.o.gate && costOf(tokens, this.o.models.get(id)?.config.price)
    if (cost) this.o.gate!.charge(payer, cost)
  }

  /**
   * The model a request of `kind` uses past a budget: `first` while none is spent, the fallback
   * (budgets.fallback, a chat model) for the kinds a chat model answers; throws BudgetExceeded when
   * the request is held. Embeddings never switch (another model's vectors live in another space),
   * nor speech either way (a chat model neither hears nor speaks).
   */
  private gated(kind: CallKind, first: ModelHandle, payer: Payer | undefined): ModelHandle {
    const v = this.o.gate!.check(payer)
    if (!v) return first
    const fallback = v.fallback && SWITCHES_PAST_BUDGET[kind] ? this.handle(v.fallback) : undefined
    if (!fallback) throw new BudgetExceeded(v)
    return fallback
  }

  /** Other plugins' requests (viewHandle) past a budget: the fallback model's, or held. */
  private viewSwap(): Swap | undefined {
    if (!this.o.gate) return undefined
    const v = this.o.gate.check(currentPayer())
    if (!v) return undefined
    const fallback = v.fallback ? this.o.models.get(v.fallback) : undefined
    if (!fallback) throw new BudgetExceeded(v)
    return { model: fallback.model, id: fallback.config.id }
  }

  /** budgets.reply for a conversation a budget holds, once a day; undefined without one. */
  heldReply(conversation: string): string | undefined {
    return this.o.gate?.replyOnce(conversation)
  }

  /** One call of `kind`: gated by the budgets, counted, failed over where its kind does; throws FailedStep (or UnknownModel, BudgetExceeded). */
  run<T>(spec: CallSpec<T>): Promise<Attempt<T>> {
    let first = typeof spec.model === 'string' ? this.handle(spec.model) : spec.model
    if (!first) return Promise.reject(new UnknownModel(spec.model as string))
    const payer = this.o.gate && (spec.payer ?? currentPayer())
    if (this.o.gate) {
      try {
        first = this.gated(spec.kind, first, payer)
      } catch (e) {
        return Promise.reject(e)
      }
    }
    const port: FailoverPort = {
      health: this.health,
      handle: id => this.handle(id),
      record: a => this.count(a, a.error ? undefined : spec.tokens(a.result as T), payer),
    }
    return withFailover({
      port, first, clock: this.o.clock, logger: this.o.logger, key: spec.key ?? spec.kind,
      signal: spec.signal, call: spec.call, failover: FAILS_OVER[spec.kind],
    })
  }

  /** A priced request: held past a budget (BudgetExceeded, nothing asked), counted and charged once it answered. */
  async priced<T>(spec: PricedSpec<T>): Promise<T> {
    const payer = this.o.gate && (spec.payer ?? currentPayer())
    const hold = this.o.gate?.check(payer)
    if (hold) throw new BudgetExceeded(hold)
    const started = this.o.clock.monotonic()
    const count = (ok: boolean) => this.o.usage.record(spec.label, { model: spec.label, latencyMs: this.o.clock.monotonic() - started }, ok, 1,
      ok && spec.cost > 0 ? spec.cost : undefined)
    let result: T
    try {
      result = await spec.call()
    } catch (e) {
      count(false)
      throw e
    }
    count(true)
    if (spec.cost > 0) this.o.gate?.charge(payer, spec.cost)
    return result
  }

  /** recall.embeddingModel's vectors for `values` (SPEC §17), counted with the tokens the server reports. */
  async embed(id: string, values: string[], signal?: AbortSignal): Promise<number[][]> {
    try {
      const answer = await this.run({
        kind: 'embedding', model: id, signal, key: 'recall',
        call: h => {
          if (!h.embedding) throw new Error(`model "${id}" has no embeddings endpoint`)
          return h.embedding(values, signal)
        },
        tokens: r => r.tokens === undefined ? {} : { promptTokens: r.tokens },
      })
      return answer.result!.embeddings
    } catch (e) {
      // the embedder says why in the server's words
      throw e instanceof FailedStep ? e.error : e
    }
  }
}
