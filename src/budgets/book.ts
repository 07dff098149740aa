// The budget book (SPEC §22 "What it may cost"): one for the plugin, today's spending per key in
// memory so the gate is a few Map lookups. Increments are buffered and flushed to the store every
// few seconds and at stop (a failed flush keeps them for the next one: nothing is lost); the store
// is read again now and then, so another instance sharing a database is seen; the day rolls over at
// midnight of budgets.timezone, and days older than KEEP_DAYS are pruned.
import type { BudgetGate } from '../contract/budget'
import type { BudgetsConfig } from '../config/types'
import type { Clock, Timer } from '../util/clock'
import { dayAround, daysBefore } from '../util/day'
import type { Logger } from '../util/logger'
import { formatCost } from '../usage/cost'
import { bookGate } from './book-gate'
import { reportOf, type BudgetLimits, type BudgetName, type BudgetReport } from './report'
import type { BudgetScope, BudgetStore, SpentRow } from './store'

/** days of files kept (the console may look back) */
export const KEEP_DAYS = 30
const FLUSH_MS = 5_000
/** the store is read again every this many flushes (a minute) */
const REFRESH_EVERY = 12

const NAME_OF: Record<Exclude<BudgetScope, 'reply'>, BudgetName> = { all: 'day', profile: 'perProfileDay', channel: 'perChannelDay', user: 'perUserDay' }
const limitOf = (config: BudgetsConfig, scope: BudgetScope): number => scope === 'reply' ? 0 : config[NAME_OF[scope]]

/** The scope a key belongs to, from its prefix (store.ts: the key formats). */
export function scopeOf(key: string): BudgetScope {
  const colon = key.indexOf(':')
  return colon < 0 ? 'all' : key.slice(0, colon) as BudgetScope
}

export interface BookOptions {
  store: BudgetStore
  clock: Clock
  logger: Logger
  /** the checked plugin-level budgets */
  config: BudgetsConfig
  flushMs?: number
}

/** One key's figures today: spent (the store's and ours), what is not stored yet, whether its crossing was logged. */
interface KeyDay {
  key: string
  scope: BudgetScope
  limit: number
  spent: number
  unsaved: number
  crossed: boolean
  /** what the console shows for the key, as the store last had it */
  label?: string
}

export class BudgetBook {
  readonly config: BudgetsConfig
  private today: { day: string; start: number; end: number }
  /** today's keys: one Map lookup a key on each request */
  private keys = new Map<string, KeyDay>()
  /** increments of past days not yet in the store (a flush failed, or midnight came first) */
  private carried: SpentRow[] = []
  /** flushes and reads of the store, one at a time */
  private chain: Promise<void> = Promise.resolve()
  private timer?: Timer
  private failing = false
  private flushes = 0
  private stopped = false

  constructor(private o: BookOptions) {
    this.config = o.config
    this.today = dayAround(o.clock.now(), o.config.timezone)
  }

  get limits(): BudgetLimits {
    const c = this.config
    return { day: c.day, perProfileDay: c.perProfileDay, perChannelDay: c.perChannelDay, perUserDay: c.perUserDay }
  }

  /** Reads today's spending (a restart keeps it), prunes old days, and starts the flushes. */
  async start(): Promise<void> {
    await this.refresh()
    await this.run(() => this.o.store.prune(daysBefore(this.today.day, KEEP_DAYS))).catch(e =>
      this.o.logger.warn('budgets: old days could not be pruned: %s', e?.message ?? e))
    this.arm()
  }

  /** The flushes stop; what is buffered is written. */
  async stop(): Promise<void> {
    this.stopped = true
    this.timer?.cancel()
    await this.flush()
  }

  private arm(): void {
    if (this.stopped) return
    this.timer = this.o.clock.setTimeout(() => {
      const refresh = ++this.flushes % REFRESH_EVERY === 0
      this.flush().then(() => refresh ? this.refresh() : undefined).catch(() => {}).finally(() => this.arm())
    }, this.o.flushMs ?? FLUSH_MS).unref()
  }

  /** Today's day name; at midnight the counts start again (the old day's increments are still flushed). */
  day(): string {
    const now = this.o.clock.now()
    // a clock set back (a test's, an owner's) counts the day it shows
    if (now >= this.today.end || now < this.today.start) {
      const old = this.today.day
      for (const k of this.keys.values()) if (k.unsaved) this.carried.push({ day: old, scope: k.scope, key: k.key, spent: k.unsaved })
      this.today = dayAround(now, this.config.timezone)
      this.keys.clear()
      const before = daysBefore(this.today.day, KEEP_DAYS)
      void this.run(() => this.o.store.prune(before)).catch(() => {})
    }
    return this.today.day
  }

  private keyDay(key: string): KeyDay {
    let k = this.keys.get(key)
    if (!k) {
      const scope = scopeOf(key)
      this.keys.set(key, k = { key, scope, limit: limitOf(this.config, scope), spent: 0, unsaved: 0, crossed: false })
    }
    return k
  }

  spentOf(key: string): number {
    this.day()
    return this.spentNow(key)
  }

  /** What `key` spent, the day not checked: the gate checks it once a request. */
  spentNow(key: string): number {
    return this.keys.get(key)?.spent ?? 0
  }

  /** Adds `amount` to `key` today (`label`: what the console shows for it); logs the first time a key crosses its budget. */
  add(key: string, amount: number, label?: string): void {
    this.day()
    const k = this.keyDay(key)
    if (label) k.label = label
    k.spent += amount
    k.unsaved += amount
    this.logCrossing(k)
  }

  /** budgets.reply for the conversation `channelKey` once a day; undefined when sent already or empty. */
  replyOnce(channelKey: string): string | undefined {
    this.day()
    const key = `reply:${channelKey}`
    if (!this.config.reply || this.spentNow(key)) return undefined
    // kept as a row of the day: stored like spending, so a restart or another instance sharing the store sees it
    this.add(key, 1)
    return this.config.reply
  }

  private logCrossing(k: KeyDay): void {
    if (!k.limit || k.crossed || k.spent < k.limit) return
    k.crossed = true
    this.o.logger.info('budget %s crossed: %s spent %s of %s today (%s); past it: %s',
      NAME_OF[k.scope as Exclude<BudgetScope, 'reply'>], k.key, formatCost(k.spent), formatCost(k.limit), this.today.day, this.config.onExceeded)
  }

  private run(fn: () => Promise<void>): Promise<void> {
    const p = this.chain.then(fn)
    this.chain = p.catch(() => {})
    return p
  }

  /** Writes the buffered increments, a day at a time; a failure keeps them for the next flush and is logged once. */
  flush(): Promise<void> {
    return this.run(async () => {
      const today = this.day()
      const batch = this.carried
      this.carried = []
      for (const k of this.keys.values()) {
        if (!k.unsaved) continue
        batch.push({ day: today, scope: k.scope, key: k.key, spent: k.unsaved, ...k.label ? { label: k.label } : {} })
        k.unsaved = 0
      }
      if (!batch.length) return
      const days = new Map<string, SpentRow[]>()
      for (const r of batch) days.set(r.day, [...days.get(r.day) ?? [], r])
      for (const [day, rows] of days) {
        try {
          await this.o.store.add(rows)
        } catch (e: any) {
          for (const left of days.values()) for (const r of left) this.keep(r)
          if (!this.failing) this.o.logger.warn('budgets: the spending of %s could not be stored, kept for the next try: %s', day, e?.message ?? e)
          this.failing = true
          return
        }
        days.delete(day)
      }
      if (this.failing) this.o.logger.info('budgets: the spending is stored again')
      this.failing = false
    })
  }

  /** An increment the store did not take: today's back on its key (already counted as spent), another day's carried. */
  private keep(r: SpentRow): void {
    if (r.day === this.day()) this.keyDay(r.key).unsaved += r.spent
    else this.carried.push(r)
  }

  /** Reads today's rows again (another instance's spending), keeping the increments not yet stored. */
  refresh(): Promise<void> {
    return this.run(async () => {
      const day = this.day()
      let rows: SpentRow[]
      try {
        rows = await this.o.store.read(day)
      } catch (e: any) {
        this.o.logger.warn('budgets: the spending of %s could not be read: %s', day, e?.message ?? e)
        return
      }
      if (this.day() !== day) return
      const stored = new Map<string, number>()
      for (const r of rows) {
        stored.set(r.key, (stored.get(r.key) ?? 0) + r.spent)
        if (r.label) this.keyDay(r.key).label = r.label
      }
      for (const key of stored.keys()) this.keyDay(key)
      for (const k of this.keys.values()) {
        k.spent = (stored.get(k.key) ?? 0) + k.unsaved
        this.logCrossing(k)
      }
    })
  }

  /** Today's figures: what kotodama.status and the console show. */
  async report(): Promise<BudgetReport> {
    const day = this.day()
    const rows: SpentRow[] = [...this.keys.values()].map(k => ({ day, scope: k.scope, key: k.key, spent: k.spent, ...k.label ? { label: k.label } : {} }))
    return reportOf(day, rows, this.limits)
  }

  /** The gate of the runtime of (`profile`, `bot`). */
  gateFor(profile: string, bot: string): BudgetGate {
    return bookGate(this, profile, bot)
  }
}

