// Idle wakes (SPEC §21, docs/initiative.md): it follows every appended entry, keeps one small state
// per conversation in the runtime home's initiative.json, and asks for an idle turn through its
// scope's request (the attention policies, as for kotodama.wake) with one timer per runtime, set
// for the soonest wake. Nothing is read nor armed before start (the runtime holds its home then).
import { join } from 'node:path'
import type { Entry } from '../history/entries'
import type { PartTurnRequest } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import type { Clock } from '../util/clock'
import { SoonestTimer } from '../util/soonest-timer'
import { KeyedFile } from '../util/keyed-file'
import { displayName } from '../util/transcript-text'
import type { Logger } from '../util/logger'
import { nextOpening } from './active-hours'
import { dayOf } from '../util/day'
import type { InitiativeConfig } from './config'
import { afterHuman, afterIdleWake, nextIdleAt, rulesKey, rulesOf, type IdleNext, type IdleRules, type IdleState } from './schedule'

export const INITIATIVE_FILE = 'initiative.json'
const MINUTE = 60_000
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
  request(channel: string, req: PartTurnRequest): Promise<void>
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
export function stateValue(v: any): IdleState | undefined {
  if (!v || typeof v !== 'object' || typeof v.channel !== 'string' || !num(v.unanswered) || !num(v.today)) return undefined
  const out: IdleState = { channel: v.channel, unanswered: v.unanswered, today: v.today }
  for (const k of ['humanAt', 'idleAt', 'due'] as const) if (num(v[k])) out[k] = v[k]
  if (typeof v.human === 'string') out.human = v.human
  if (typeof v.day === 'string') out.day = v.day
  if (typeof v.rules === 'string') out.rules = v.rules
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

export class IdleWakes implements RuntimePart {
  readonly name = 'initiative'
  private file: KeyedFile<IdleState>
  private rules: IdleRules
  /** the rules a due was drawn under (IdleState.rules): one string shared by every state */
  private drawnUnder: string
  private timer: SoonestTimer
  private early: [string, readonly Entry[]][] | undefined = []
  private stopped = false
  private loaded?: Promise<void>

  constructor(private d: InitiativeDeps) {
    this.timer = new SoonestTimer(d.clock, () => this.tick())
    this.rules = rulesOf(d.config, d.dayZone)
    this.drawnUnder = rulesKey(d.config, d.dayZone)
    this.file = new KeyedFile({ path: join(d.home, INITIATIVE_FILE), field: 'idle', what: 'idle wakes', value: stateValue, logger: d.logger })
  }

  /** Reads initiative.json and arms the timer: only once the runtime holds its home. */
  start(): Promise<void> {
    this.loaded ??= this.load()
    return this.loaded
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
    for (const s of this.states.values()) this.loadedState(s, now)
    for (const [key, entries] of early) this.appended(key, entries)
    this.arm()
  }

  /**
   * A stored state as the current rules see it: a due drawn under other rules (the owner changed
   * the hours, the zone or the waits, and reloaded) is drawn again; one due while kotodama was down
   * fires once, at the first opening from now.
   */
  private loadedState(s: IdleState, now: number): void {
    if (s.due !== undefined && s.rules !== this.drawnUnder) {
      const next = nextIdleAt(s, this.rules, now, this.d.random)
      if ('at' in next) s.due = next.at
      else delete s.due
      this.file.changed()
    }
    if (s.due !== undefined && s.due < now) s.due = nextOpening(now, this.rules.hours, this.rules.zone)
    // one string for every state (a few bytes each, not one copy per conversation)
    if (s.due !== undefined) s.rules = this.drawnUnder
    else delete s.rules
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
    if ('at' in next) {
      s.due = next.at
      s.rules = this.drawnUnder
    } else {
      delete s.due
      delete s.rules
    }
    this.states.set(key, s)
    this.file.changed()
    if (s.due !== undefined) this.arm(s.due)
  }

  /** Sets the timer for `at`, or (no argument) for the soonest wake of all. */
  private arm(at?: number): void {
    if (this.stopped) return
    if (at !== undefined) return this.timer.sooner(at)
    let soonest = Infinity
    for (const s of this.states.values()) if (s.due !== undefined && s.due < soonest) soonest = s.due
    this.timer.reset(soonest)
  }

  private tick(): void {
    const now = this.d.clock.now()
    for (const [key, s] of this.states) if (s.due !== undefined && s.due <= now) this.fire(key, s, now)
    this.arm()
  }

  private fire(key: string, s: IdleState, now: number): void {
    if (!this.d.proactive()) {
      delete s.due
      return this.file.changed()
    }
    if (this.d.muted(s.channel)) {
      s.due = nextOpening(now + MUTED_RETRY, this.rules.hours, this.rules.zone)
      return this.file.changed()
    }
    const note = `[idle: quiet for ${quietFor(now - (s.humanAt ?? now))}; last: ${displayName(s.human, 'someone')}]`
    const woke = afterIdleWake(s, now, this.rules)
    this.update(key, woke)
    this.d.logger.debug('idle wake of %s: %s', key, note)
    // looked at again when the turn starts: queued behind a turn the bot answered in, it is not wanted (SPEC §21)
    const wanted = () => this.stillIdle(key, woke)
    this.d.request(s.channel, { reason: 'idle', note, wanted })
      .catch(e => this.d.logger.warn('the idle wake of conversation %s could not start: %s', key, e?.message ?? e))
  }

  /** Whether the idle wake drawn as `woke` still holds: nobody wrote since and the bot did not speak last. */
  private stillIdle(key: string, woke: IdleState): boolean {
    const s = this.states.get(key)
    return !this.stopped && !!s && !s.botLast && s.humanAt === woke.humanAt && this.d.proactive() && !this.d.muted(s.channel)
  }

  /** The next idle wake of conversation `key`, or why there is none (status, the console). */
  next(key: string): IdleNext {
    if (!this.d.proactive()) return { none: 'the platform forbids proactive messages', why: 'not-proactive' }
    const s = this.states.get(key)
    if (!s) return { none: 'no human message yet', why: 'no-human' }
    if (this.d.muted(s.channel)) return { none: 'muted', why: 'muted' }
    return s.due !== undefined ? { at: s.due } : nextIdleAt(s, this.rules, this.d.clock.now(), () => 0.5)
  }

  /** What it tells of conversation `key` in the status and on the console: its next idle wake. */
  status(key: string): { idle: IdleNext } {
    return { idle: this.next(key) }
  }

  /** Conversations it keeps a state for. */
  get size(): number {
    return this.states.size
  }

  async reset(key: string): Promise<void> {
    if (this.states.delete(key)) this.file.changed()
  }

  /**
   * An unloaded conversation keeps a state only while it has a wake to come or counts toward
   * today's perDay: the next human message makes any other one again as it was (bounded heap per
   * idle conversation).
   */
  unloaded(key: string): void {
    const s = this.states.get(key)
    if (!s || s.due !== undefined) return
    if (s.today > 0 && s.day === dayOf(this.d.clock.now(), this.rules.dayZone)) return
    this.states.delete(key)
    this.file.changed()
  }

  async written(): Promise<void> {
    await this.loaded
    await this.file.idle()
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.timer.cancel()
    await this.loaded
    await this.file.stop()
  }
}
