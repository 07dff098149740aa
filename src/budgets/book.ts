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

const NAME_OF: Record<BudgetScope, BudgetName> = { all: 'day', profile: 'perProfileDay', channel: 'perChannelDay', user: 'perUserDay' }

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

export class BudgetBook {
  readonly config: BudgetsConfig
  private today: { day: string; start: number; end: number }
  /** today's spending per key: the store's, and the increments not yet flushed */
  private spent = new Map<string, number>()
  /** increments not yet in the store, by day and key */
  private pending = new Map<string, SpentRow>()
  /** keys whose crossing was logged today */
  private crossed = new Set<string>()
  /** conversations (channel keys) that got budgets.reply today */
  private replied = new Set<string>()
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

  /** Whether any budget is set: without one the runtimes get no gate. */
  get active(): boolean {
    const l = this.limits
    return l.day > 0 || l.perProfileDay > 0 || l.perChannelDay > 0 || l.perUserDay > 0
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
      this.today = dayAround(now, this.config.timezone)
      this.spent.clear()
      this.crossed.clear()
      this.replied.clear()
      const before = daysBefore(this.today.day, KEEP_DAYS)
      void this.run(() => this.o.store.prune(before)).catch(() => {})
    }
    return this.today.day
  }

  spentOf(key: string): number {
    this.day()
    return this.spent.get(key) ?? 0
  }

  limitOf(scope: BudgetScope): number {
    return this.config[NAME_OF[scope]]
  }

  /** Adds `amount` to `key` today; logs the first time a key crosses its budget. */
  add(key: string, amount: number): void {
    const day = this.day()
    const before = this.spent.get(key) ?? 0
    this.spent.set(key, before + amount)
    const id = `${day}\n${key}`
    const row = this.pending.get(id)
    if (row) row.spent += amount
    else this.pending.set(id, { day, scope: scopeOf(key), key, spent: amount })
    this.logCrossing(key, before + amount)
  }

  /** budgets.reply for the conversation `channelKey` once a day; undefined when sent already or empty. */
  replyOnce(channelKey: string): string | undefined {
    this.day()
    if (!this.config.reply || this.replied.has(channelKey)) return undefined
    this.replied.add(channelKey)
    return this.config.reply
  }

  private logCrossing(key: string, spent: number): void {
    const scope = scopeOf(key)
    const limit = this.limitOf(scope)
    if (!limit || spent < limit || this.crossed.has(key)) return
    this.crossed.add(key)
    this.o.logger.info('budget %s crossed: %s spent %s of %s today (%s); past it: %s',
      NAME_OF[scope], key, formatCost(spent), formatCost(limit), this.today.day, this.config.onExceeded)
  }

  private run(fn: () => Promise<void>): Promise<void> {
    const p = this.chain.then(fn)
    this.chain = p.catch(() => {})
    return p
  }

  /** Writes the buffered increments, a day at a time; a failure keeps them for the next flush and is logged once. */
  flush(): Promise<void> {
    return this.run(async () => {
      if (!this.pending.size) return
      const batch = [...this.pending.values()]
      this.pending.clear()
      const days = new Map<string, SpentRow[]>()
      for (const r of batch) days.set(r.day, [...days.get(r.day) ?? [], r])
      for (const [day, rows] of days) {
        try {
          await this.o.store.add(rows)
        } catch (e: any) {
          for (const r of rows) this.keep(r)
          if (!this.failing) this.o.logger.warn('budgets: the spending of %s could not be stored, kept for the next try: %s', day, e?.message ?? e)
          this.failing = true
          return
        }
      }
      if (this.failing) this.o.logger.info('budgets: the spending is stored again')
      this.failing = false
    })
  }

  private keep(r: SpentRow): void {
    const id = `${r.day}\n${r.key}`
    const row = this.pending.get(id)
    if (row) row.spent += r.spent
    else this.pending.set(id, { ...r })
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
      const spent = new Map<string, number>()
      for (const r of rows) spent.set(r.key, (spent.get(r.key) ?? 0) + r.spent)
      for (const r of this.pending.values()) if (r.day === day) spent.set(r.key, (spent.get(r.key) ?? 0) + r.spent)
      this.spent = spent
      for (const [key, amount] of spent) this.logCrossing(key, amount)
    })
  }

  /** Today's figures: what kotodama.status and the console show. */
  async report(): Promise<BudgetReport> {
    const day = this.day()
    const rows: SpentRow[] = [...this.spent].map(([key, spent]) => ({ day, scope: scopeOf(key), key, spent }))
    return reportOf(day, rows, this.limits)
  }

  /** The gate of the runtime of (`profile`, `bot`). */
  gateFor(profile: string, bot: string): BudgetGate {
    return bookGate(this, profile, bot)
  }
}

