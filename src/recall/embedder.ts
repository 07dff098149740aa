// Vectors for recall.embeddingModel (docs/recall.md "Vectors"): messages are embedded in the
// background, in batches, conversation by conversation, in message order; a query is embedded
// when it is searched. While the embeddings server fails, searches rank by keywords alone: one
// warning when it starts failing, one line when it answers again, and the background work waits
// 30 s, doubling up to 10 minutes, between tries.
import type { Clock, Timer } from '../util/clock'
import type { Logger } from '../util/logger'
import type { ConvIndex } from './conv-index'
import type { VectorStore } from './vectors'

/** An OpenAI-compatible `/v1/embeddings` model (the model handle's `embed`). */
export interface EmbedModel {
  id: string
  embed(values: string[], signal?: AbortSignal): Promise<number[][]>
}

export const BATCH = 32
const RETRY_MS = 30_000
const RETRY_MAX_MS = 600_000
/** a query waits this long for its vector, then is ranked by keywords alone */
const QUERY_TIMEOUT_MS = 10_000
/** at most this many characters of a message are embedded */
const MAX_CHARS = 2000

export interface EmbedTarget {
  index: ConvIndex
  vectors: VectorStore
}

export class Embedder {
  private pending = new Set<string>()
  private running?: Promise<void>
  private failing = false
  private retryMs = RETRY_MS
  private timer?: Timer
  private stopped = false

  constructor(readonly model: EmbedModel, private o: { logger: Logger; clock: Clock; target(key: string): Promise<EmbedTarget | undefined> }) {}

  /** The conversation has messages without vectors: embed them when the server takes them. */
  schedule(key: string): void {
    if (this.stopped) return
    this.pending.add(key)
    if (!this.running && !this.timer) this.running = this.work().finally(() => { this.running = undefined })
  }

  private async work(): Promise<void> {
    while (this.pending.size && !this.stopped) {
      const key = this.pending.values().next().value!
      try {
        const t = await this.o.target(key)
        if (t) await this.embedAll(t)
        this.pending.delete(key)
        this.succeeded()
      } catch (e) {
        this.failed(e)
        this.timer = this.o.clock.setTimeout(() => {
          this.timer = undefined
          if (this.pending.size) this.schedule(this.pending.values().next().value!)
        }, this.retryMs).unref()
        this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2)
        return
      }
    }
  }

  private async embedAll({ index, vectors }: EmbedTarget): Promise<void> {
    while (!this.stopped && vectors.count < index.count) {
      const from = vectors.count
      const generation = vectors.generation
      const docs = index.docs(from, from + BATCH)
      const got = await this.model.embed(docs.map(d => d.text.slice(0, MAX_CHARS) || ' '))
      if (got.length !== docs.length) throw new Error(`the embeddings model returned ${got.length} vectors for ${docs.length} texts`)
      // the index was wiped meanwhile (a reset, a rebuild): these vectors belong to nothing
      if (vectors.generation !== generation || vectors.count !== from) continue
      await vectors.append(got)
    }
  }

  /** The query's vector, or undefined (no server, or it failed: keywords alone). */
  async query(text: string, signal?: AbortSignal): Promise<number[] | undefined> {
    const timeout = AbortSignal.timeout(QUERY_TIMEOUT_MS)
    try {
      const [v] = await this.model.embed([text.slice(0, MAX_CHARS)], signal ? AbortSignal.any([signal, timeout]) : timeout)
      this.succeeded()
      return v
    } catch (e) {
      if (!signal?.aborted) this.failed(e)
      return undefined
    }
  }

  private failed(e: unknown): void {
    if (this.failing) return
    this.failing = true
    this.o.logger.warn(
      'recall: the embeddings model "%s" failed (%s); searching by keywords only until it answers again',
      this.model.id, (e as Error)?.message ?? e)
  }

  private succeeded(): void {
    this.retryMs = RETRY_MS
    if (!this.failing) return
    this.failing = false
    this.o.logger.info('recall: the embeddings model "%s" answers again', this.model.id)
  }

  /** Resolves when no background work runs (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running
  }

  stop(): Promise<void> {
    this.stopped = true
    this.timer?.cancel()
    return this.running ?? Promise.resolve()
  }
}
