// Idle wakes as a part of the runtime (SPEC §21, docs/initiative.md): it follows every appended
// entry, keeps one small state per conversation in the runtime home's initiative.json, and asks
// for an idle turn through PartsDeps.request (the attention policies, as for kotodama.wake) with
// one timer per runtime, set for the soonest wake.
import { join } from 'node:path'
import type { InitiativeConfig } from '../config/types'
import type { Entry } from '../history/entries'
import type { RuntimePart } from '../part/runtime-part'
import type { Clock, Timer } from '../util/clock'
import { KeyedFile } from '../util/keyed-file'
import { displayName } from '../util/transcript-text'
import type { Logger } from '../util/logger'
import { nextOpening } from './active-hours'
import { afterHuman, afterIdleWake, nextIdleAt, rulesOf, type IdleNext, type IdleRules, type IdleState } from './schedule'

export const INITIATIVE_FILE = 'initiative.json'
const MINUTE = 60_000
/** timers longer than this are set again when they run out (setTimeout's limit is 24.8 days) */
const LONGEST_TIMER = 86_400_000
/** a wake that finds its conversation muted looks again this much later */
const MUTED_RETRY = 30 * MINUTE

export interface InitiativeDeps {
  config: InitiativeConfig
  /** budgets.timezone: perDay's day, and activeHours' zone when initiative.timezone is empty */
  dayZone?: string
  home: string
  bot: string
  clock: Clock
  logger: Logger
  random(): number
  /** false: the platform forbids proactive messages (QQ's official API) */
  proactive(): boolean
  muted(channel: string): boolean
  request(channel: string, req: { reason: string; note: string }): Promise<void>
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
function stateValue(v: any): IdleState | undefined {
  if (!v || typeof v !== 'object' || typeof v.channel !== 'string' || !num(v.unanswered) || !num(v.today)) return undefined
  const out: IdleState = { channel: v.channel, unanswered: v.unanswered, today: v.today }
  for (const k of ['humanAt', 'idleAt', 'due'] as const) if (num(v[k])) out[k] = v[k]
  if (typeof v.human === 'string') out.human = v.human
  if (typeof v.day === 'string') out.day = v.day
  if (v.botLast === true) out.botLast = true
  return out
}

/** '4 h 10 min', '2 d 3 h', '12 min' */
export function quietFor(ms: number): string {
  const min = Math.max(0, Math.floor(ms / MINUTE))
  const d = Math.floor(min / 1440)
  const h = Math.floor(min % 1440 / 60)
  const m = min % 60
  return d ? `${d} d ${h} h` : h ? `${h} h ${m} min` : `${m} min`
}

const spoke = (e: Entry) => e.type === 'step' && e.messages.some(m => m.role === 'assistant' && Array.isArray(m.content)
  && m.content.some(p => p.type === 'tool-call' && p.toolName === 'send_message'))

export class InitiativePart implements RuntimePart {
  readonly name = 'initiative'
  private file: KeyedFile<IdleState>
  private rules: IdleRules
  private timer?: Timer
  private timerAt = Infinity
  private early: [string, readonly Entry[]][] | undefined = []
  private stopped = false
  private loading?: Promise<void>

  constructor(private d: InitiativeDeps) {
    this.rules = rulesOf(d.config, d.dayZone)
    this.file = new KeyedFile({ path: join(d.home, INITIATIVE_FILE), field: 'idle', what: 'idle wakes', value: stateValue, logger: d.logger })
  }

  /** Loads initiative.json and arms the timer: once the runtime holds its home, never when made. */
  start(): Promise<void> {
    return this.loaded
  }

  get loaded(): Promise<void> {
    return this.loading ??= this.load()
  }

  private get states(): Map<string, IdleState> {
    return this.file.map
  }

  private async load(): Promise<void> {
    const problem = await this.file.load()
    if (problem) this.d.logger.warn('idle wakes %s %s; they are scheduled again from the next human message', this.file.path, problem)
    const early = this.early ?? []
    this.early = undefined
    const now = this.d.clock.now()
    // a wake due while kotodama was down fires once, at the first opening from now
    for (const s of this.states.values()) if (s.due !== undefined && s.due < now) s.due = nextOpening(now, this.rules.hours, this.rules.zone)
    for (const [key, entries] of early) this.appended(key, entries)
    this.arm()
  }

  appended(key: string, entries: readonly Entry[]): void {
    if (this.early) return void this.early.push([key, entries])
    let s = this.states.get(key)
    const was = s
    for (const e of entries) {
      if (e.type === 'fact' && !e.fact.fromBot && !e.fact.notice) s = afterHuman(s, e.fact.channel, e.fact.at, e.fact.user.name)
      else if (s && !s.botLast && spoke(e)) s = { ...s, botLast: true }
    }
    if (s && s !== was) this.update(key, s)
  }

  private update(key: string, s: IdleState): void {
    const next = this.d.proactive() ? nextIdleAt(s, this.rules, this.d.clock.now(), this.d.random) : { none: 'not proactive', why: 'not-proactive' as const }
    if ('at' in next) s.due = next.at
    else delete s.due
    this.states.set(key, s)
    this.file.changed()
    if (s.due !== undefined) this.arm(s.due)
  }

  /** Sets the timer for `at`, or (no argument) for the soonest wake of all. */
  private arm(at?: number): void {
    if (this.stopped) return
    if (at === undefined) {
      at = Infinity
      for (const s of this.states.values()) if (s.due !== undefined && s.due < at) at = s.due
      this.timer?.cancel()
      this.timer = undefined
      this.timerAt = Infinity
    }
    if (at === Infinity || (this.timer && this.timerAt <= at)) return
    this.timer?.cancel()
    this.timerAt = at
    const wait = Math.min(Math.max(0, at - this.d.clock.now()), LONGEST_TIMER)
    this.timer = this.d.clock.setTimeout(() => this.tick(), wait).unref()
  }

  private tick(): void {
    this.timer = undefined
    this.timerAt = Infinity
    const now = this.d.clock.now()
    for (const [key, s] of this.states) if (s.due !== undefined && s.due <= now) this.fire(key, s, now)
    this.arm()
  }

  private fire(key: string, s: IdleState, now: number): void {
    if (!this.d.proactive()) return void delete s.due
    if (this.d.muted(s.channel)) {
      s.due = nextOpening(now + MUTED_RETRY, this.rules.hours, this.rules.zone)
      return this.file.changed()
    }
    const note = `[idle: quiet for ${quietFor(now - (s.humanAt ?? now))}; last: ${displayName(s.human, 'someone')}]`
    this.update(key, afterIdleWake(s, now, this.rules))
    this.d.logger.debug('idle wake of %s: %s', key, note)
    this.d.request(s.channel, { reason: 'idle', note })
      .catch(e => this.d.logger.warn('the idle wake of conversation %s could not start: %s', key, e?.message ?? e))
  }

  /** The next idle wake of conversation `key`, or why there is none (status, the console). */
  next(key: string): IdleNext {
    if (!this.d.proactive()) return { none: 'the platform forbids proactive messages', why: 'not-proactive' }
    const s = this.states.get(key)
    if (!s) return { none: 'no human message yet', why: 'no-human' }
    if (this.d.muted(s.channel)) return { none: 'muted', why: 'muted' }
    return s.due !== undefined ? { at: s.due } : nextIdleAt(s, this.rules, this.d.clock.now(), () => 0.5)
  }

  /** Conversations it keeps a state for. */
  get size(): number {
    return this.states.size
  }

  async reset(key: string): Promise<void> {
    if (this.states.delete(key)) this.file.changed()
  }

  async written(): Promise<void> {
    await this.loading
    await this.file.idle()
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.timer?.cancel()
    await this.loading
    await this.file.stop()
  }

  status(key: string): { idle: IdleNext } {
    return { idle: this.next(key) }
  }
}
