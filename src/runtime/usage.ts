// Usage per model (SPEC §11): what each step cost, and counters since start and for today. Today's
// counters are also in `<home>/usage/<YYYY-MM-DD>.json`, so a restart does not zero them.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LanguageModelV3Usage } from '@ai-sdk/provider'
import { atomicWrite } from '../util/atomic-write'
import { isMissing } from '../resources/fs-error'
import type { Clock, Timer } from '../util/clock'
import type { Logger } from '../util/logger'

/** Stored on a step entry: which model answered, how fast, and the tokens the server reported. */
export interface StepUsage {
  model: string
  latencyMs: number
  promptTokens?: number
  completionTokens?: number
  reasoningTokens?: number
  cachedTokens?: number
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

export function stepUsage(model: string, latencyMs: number, u?: LanguageModelV3Usage): StepUsage {
  const out: StepUsage = { model, latencyMs }
  const fields: [keyof StepUsage, unknown][] = [
    ['promptTokens', u?.inputTokens?.total], ['completionTokens', u?.outputTokens?.total],
    ['reasoningTokens', u?.outputTokens?.reasoning], ['cachedTokens', u?.inputTokens?.cacheRead],
  ]
  for (const [k, v] of fields) if (num(v)) (out as any)[k] = v
  return out
}

export interface UsageCounts {
  requests: number
  errors: number
  promptTokens: number
  completionTokens: number
}

const zero = (): UsageCounts => ({ requests: 0, errors: 0, promptTokens: 0, completionTokens: 0 })
const WRITE_EVERY = 5000

function add(to: Map<string, UsageCounts>, model: string, u: StepUsage | undefined, ok: boolean): void {
  let c = to.get(model)
  if (!c) to.set(model, c = zero())
  c.requests++
  if (!ok) c.errors++
  c.promptTokens += u?.promptTokens ?? 0
  c.completionTokens += u?.completionTokens ?? 0
}

export class UsageBook {
  private total = new Map<string, UsageCounts>()
  private today = new Map<string, UsageCounts>()
  private day: string
  private timer?: Timer
  private writing = Promise.resolve()

  constructor(private dir: string, private clock: Clock, private logger: Logger) {
    this.day = this.dayOf(clock.now())
  }

  private dayOf(ms: number): string {
    return new Date(ms).toISOString().slice(0, 10)
  }

  /** Today's counters from the daily file, if an earlier run left one. */
  async load(): Promise<void> {
    try {
      const data = JSON.parse(await readFile(join(this.dir, `${this.day}.json`), 'utf8'))
      for (const [model, c] of Object.entries<any>(data?.models ?? {})) {
        const have = this.today.get(model) ?? zero()
        for (const k of Object.keys(have) as (keyof UsageCounts)[]) have[k] += num(c?.[k]) ? c[k] : 0
        this.today.set(model, have)
      }
    } catch (e: any) {
      if (!isMissing(e)) this.logger.warn('usage file of %s could not be read: %s', this.day, e?.message ?? e)
    }
  }

  record(model: string, u: StepUsage | undefined, ok: boolean): void {
    const day = this.dayOf(this.clock.now())
    if (day !== this.day) {
      // a new day: yesterday's file keeps yesterday's counts
      void this.write()
      this.day = day
      this.today = new Map()
    }
    add(this.total, model, u, ok)
    add(this.today, model, u, ok)
    this.timer ??= this.clock.setTimeout(() => { this.timer = undefined; void this.write() }, WRITE_EVERY).unref()
  }

  /** Per model: counts since start and today. */
  snapshot(): { model: string; total: UsageCounts; today: UsageCounts }[] {
    const models = new Set([...this.total.keys(), ...this.today.keys()])
    return [...models].sort().map(model => ({ model, total: { ...this.total.get(model) ?? zero() }, today: { ...this.today.get(model) ?? zero() } }))
  }

  private write(): Promise<void> {
    const path = join(this.dir, `${this.day}.json`)
    const data = JSON.stringify({ day: this.day, models: Object.fromEntries(this.today) })
    this.writing = this.writing.then(() => atomicWrite(path, data)).catch(e => this.logger.warn('usage file could not be written: %s', e?.message ?? e))
    return this.writing
  }

  async stop(): Promise<void> {
    this.timer?.cancel()
    this.timer = undefined
    if (this.today.size) await this.write()
    await this.writing
  }
}
