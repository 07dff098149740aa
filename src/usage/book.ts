// Usage per model (SPEC §11, §16): what each step took, and counters since start, for today and
// the days before. Each day's counters are in `<home>/usage/<YYYY-MM-DD>.json`, days of
// budgets.timezone (util/day.ts: the one day of kotodama), so a restart does not zero them and the
// console can show the last days.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LanguageModelV3Usage } from '@ai-sdk/provider'
import { atomicWrite } from '../util/atomic-write'
import { isMissing } from '../resources/fs-error'
import { costOf, type PriceOf } from './cost'
import type { Clock, Timer } from '../util/clock'
import { dayAround, daysBefore } from '../util/day'
import type { Logger } from '../util/logger'

/** Stored on a step entry: which model answered, how fast, and the tokens the server reported. */
export interface StepUsage {
  model: string
  latencyMs: number
  promptTokens?: number
  completionTokens?: number
  reasoningTokens?: number
  cachedTokens?: number
  /** prompt tokens written to the cache (Anthropic's cache_creation_input_tokens), billed at `price.cacheWrite` */
  cacheWriteTokens?: number
  /** pictures an image model made (SPEC §24), billed at `price.image` each */
  images?: number
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

export function stepUsage(model: string, latencyMs: number, u?: LanguageModelV3Usage): StepUsage {
  const out: StepUsage = { model, latencyMs }
  const fields: [keyof StepUsage, unknown][] = [
    ['promptTokens', u?.inputTokens?.total], ['completionTokens', u?.outputTokens?.total],
    ['reasoningTokens', u?.outputTokens?.reasoning], ['cachedTokens', u?.inputTokens?.cacheRead],
    ['cacheWriteTokens', u?.inputTokens?.cacheWrite || undefined],
  ]
  for (const [k, v] of fields) if (num(v)) (out as any)[k] = v
  return out
}

export interface UsageCounts {
  requests: number
  errors: number
  promptTokens: number
  /** prompt tokens the server served from its prompt cache (SPEC §16) */
  cachedTokens: number
  /** prompt tokens written to the cache (SPEC §11.1: Anthropic bills them above the input price); absent in older books */
  cacheWriteTokens?: number
  completionTokens: number
  /** pictures made (SPEC §24); absent in older books and for chat models */
  images?: number
  /** in the owner's currency, over the requests of models with a price; absent when none had one (never 0 for unknown) */
  cost?: number
}

const zero = (): UsageCounts => ({ requests: 0, errors: 0, promptTokens: 0, cachedTokens: 0, completionTokens: 0 })
const COUNTS: (keyof UsageCounts)[] = ['requests', 'errors', 'promptTokens', 'cachedTokens', 'cacheWriteTokens', 'completionTokens', 'images', 'cost']
const WRITE_EVERY = 5000
/** Days the book keeps for the console's per-day table, today included. */
export const DAYS_KEPT = 7
/** The book's key for sends the platform refused: errors of the runtime, not of a model (issue 21). */
export const FAILED_SENDS = 'send_message'

/** Adds `b` into `a`; a cost stays absent while both are. */
export function addCounts(a: UsageCounts, b: Partial<UsageCounts>): UsageCounts {
  for (const k of COUNTS) {
    const v = b[k]
    if (!num(v)) continue
    a[k] = (a[k] ?? 0) + v
  }
  return a
}

/** One day's counters summed over its models. */
export interface DayUsage extends UsageCounts {
  day: string
}

export class UsageBook {
  private total = new Map<string, UsageCounts>()
  private today = new Map<string, UsageCounts>()
  /** the days before today that had usage, from their files (read once) or kept at midnight */
  private past = new Map<string, Map<string, UsageCounts>>()
  private day: string
  private timer?: Timer
  private writing = Promise.resolve()
  /** after stop() nothing is written: a late count stays in memory (issue 21) */
  private closed = false

  /**
   * `priceOf`: each model's price, so that a request's cost is counted at the price it was made at;
   * `zone`: budgets.timezone ('' : the host's)
   */
  constructor(private dir: string, private clock: Clock, private logger: Logger, readonly priceOf: PriceOf = () => undefined, private zone = '') {
    this.day = this.dayOf(clock.now())
  }

  /** the day last named, and where it starts and ends: every request asks (bench 6), the zone is read once a day */
  private named = { start: NaN, end: NaN, day: '' }

  private dayOf(ms: number): string {
    const n = this.named
    if (ms >= n.start && ms < n.end) return n.day
    this.named = dayAround(ms, this.zone)
    return this.named.day
  }

  /** Today's counters and those of the days before (up to DAYS_KEPT), from the daily files earlier runs left. */
  async load(): Promise<void> {
    const today = await this.readDay(this.day)
    for (const [model, c] of today) this.today.set(model, addCounts(this.today.get(model) ?? zero(), c))
    for (let i = 1; i < DAYS_KEPT; i++) {
      const day = daysBefore(this.day, i)
      if (this.past.has(day)) continue
      const models = await this.readDay(day)
      if (models.size) this.past.set(day, models)
    }
  }

  /** A daily file's counters per model; files older than `cachedTokens` and `cost` load without them. */
  private async readDay(day: string): Promise<Map<string, UsageCounts>> {
    const out = new Map<string, UsageCounts>()
    try {
      const data = JSON.parse(await readFile(join(this.dir, `${day}.json`), 'utf8'))
      for (const [model, c] of Object.entries<any>(data?.models ?? {})) out.set(model, addCounts(zero(), c ?? {}))
    } catch (e: any) {
      if (!isMissing(e)) this.logger.warn('usage file of %s could not be read: %s', day, e?.message ?? e)
    }
    return out
  }

  /**
   * One request of `model` (or, `requests` 0, an error that was no request: a refused send); `cost`
   * given: a request with a price of its own (a web search), else its tokens at the model's price.
   */
  record(model: string, u: StepUsage | undefined, ok: boolean, requests = 1, cost = u && costOf(u, this.priceOf(model))): void {
    const day = this.dayOf(this.clock.now())
    if (day !== this.day) {
      // a new day: yesterday's file keeps yesterday's counts, and the table keeps them too
      void this.write()
      if (this.today.size) this.past.set(this.day, this.today)
      for (const d of [...this.past.keys()].sort().slice(0, -(DAYS_KEPT - 1))) this.past.delete(d)
      this.day = day
      this.today = new Map()
    }
    for (const book of [this.total, this.today]) {
      const c = book.get(model) ?? zero()
      book.set(model, addCounts(c, {
        requests, errors: ok ? 0 : 1,
        promptTokens: u?.promptTokens, cachedTokens: u?.cachedTokens, cacheWriteTokens: u?.cacheWriteTokens,
        completionTokens: u?.completionTokens, images: u?.images, cost,
      }))
    }
    if (!this.closed) this.timer ??= this.clock.setTimeout(() => { this.timer = undefined; void this.write() }, WRITE_EVERY).unref()
  }

  /** A message the platform refused: counted with the day's errors. */
  recordFailedSend(): void {
    this.record(FAILED_SENDS, undefined, false, 0)
  }

  /** Sends the platform refused, since start and today. */
  failedSends(): { total: number; today: number } {
    return { total: this.total.get(FAILED_SENDS)?.errors ?? 0, today: this.today.get(FAILED_SENDS)?.errors ?? 0 }
  }

  /** Per model: counts since start and today. */
  snapshot(): { model: string; total: UsageCounts; today: UsageCounts }[] {
    const models = new Set([...this.total.keys(), ...this.today.keys()])
    models.delete(FAILED_SENDS)
    return [...models].sort().map(model => ({ model, total: { ...this.total.get(model) ?? zero() }, today: { ...this.today.get(model) ?? zero() } }))
  }

  /** Today and the days before it that had usage (DAYS_KEPT at most), newest first, summed over models. */
  days(): DayUsage[] {
    const sum = (day: string, models: Map<string, UsageCounts>): DayUsage => {
      const out: DayUsage = { day, ...zero() }
      for (const c of models.values()) addCounts(out, c)
      return out
    }
    const out = [sum(this.day, this.today)]
    for (const day of [...this.past.keys()].sort().reverse()) if (day < this.day) out.push(sum(day, this.past.get(day)!))
    return out.slice(0, DAYS_KEPT)
  }

  private write(): Promise<void> {
    if (this.closed) return this.writing
    const path = join(this.dir, `${this.day}.json`)
    const data = JSON.stringify({ day: this.day, models: Object.fromEntries(this.today) })
    this.writing = this.writing.then(() => atomicWrite(path, data)).catch(e => this.logger.warn('usage file could not be written: %s', e?.message ?? e))
    return this.writing
  }

  async stop(): Promise<void> {
    this.timer?.cancel()
    this.timer = undefined
    if (this.today.size) void this.write()
    this.closed = true
    await this.writing
  }
}
