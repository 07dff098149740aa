// A conversation's attention (SPEC §15), as one object the conversation consults: what an arriving
// fact does (held or waking, arrival.ts), when the next turn starts (bursts, cooldown, the judge:
// gate.ts), and which sends still typing stop for a new message (`timing.yield`).
import type { ProfileConfig } from '../config/types'
import type { Fact } from '../history/entries'
import type { Clock } from '../util/clock'
import { Arrivals, unheeded } from './arrival'
import { TurnGate, type TurnStart } from './gate'
import type { Verdict } from './judge'

export interface AttentionDeps {
  profile: ProfileConfig
  clock: Clock
  /** starts the turn now, or right after the running one */
  start(turn: TurnStart): void
  /** asks wake.judge about the newest lines; absent when none is configured */
  judge?(reason: string): Promise<Verdict>
  /** the judge said no (or nothing) */
  declined(reason: string, why: string): void
  /** the channel's mind may not speak now (a ban, a pause: SPEC §19); its wakes are held and declined */
  muted?(channel?: string): boolean
}

/** What an arriving fact is: `wake` when it wakes the mind, `held` when it would have and may not. */
export interface Arrival {
  wake?: string
  held?: string
}

export class Attention {
  private arrivals: Arrivals
  private gate: TurnGate
  /** sends typing now, told when people write (timing.yield) */
  private typing = new Set<() => void>()

  private profile: ProfileConfig

  constructor(deps: AttentionDeps) {
    this.profile = deps.profile
    this.arrivals = new Arrivals(deps.profile, deps.muted && (channel => deps.muted!(channel)))
    // a turn that would start while muted (a wait window, an explicit wake, a burst that began before the ban) is declined
    const start = (turn: TurnStart) => deps.muted?.() ? deps.declined(turn.reason, 'muted') : deps.start(turn)
    this.gate = new TurnGate({ clock: deps.clock, timing: () => deps.profile.timing, start, judge: deps.judge, declined: deps.declined })
  }

  /** A wake is waiting for its turn (the conversation must stay loaded). */
  get waiting(): boolean {
    return this.gate.waiting
  }

  /** Whether a fact the wake engine judged wakes the mind (counts it against its author). */
  arrive(fact: Fact, wake: string | undefined, now: number): Arrival {
    const held = this.arrivals.held(fact, wake, now)
    return held ? { held } : wake ? { wake } : {}
  }

  /** A fact arrived while a turn runs: it restarts a burst wait, and may stop a send still typing (never another bot's or an ignored user's). */
  duringTurn(arrival: Arrival, wake: string | undefined, fact: Fact): void {
    this.gate.heard()
    if (unheeded(fact, this.profile.wake)) return
    if (this.arrivals.interrupts(wake, arrival.held)) this.typing.forEach(stop => stop())
  }

  /** A fact arrived between turns: a waking one goes to the gate, any other restarts its wait. */
  between(arrival: Arrival): void {
    if (arrival.wake) this.gate.wake(arrival.wake)
    else this.gate.heard()
  }

  /** A turn for an explicit wake-up or a wait window: now (after the judge, for a wait), or after the running one. */
  consider(turn: TurnStart): void {
    this.gate.consider(turn)
  }

  /** A send typing now: `stop` is called when people write what it should yield to; returns the unsubscribe. */
  watchArrivals(stop: () => void): () => void {
    this.typing.add(stop)
    return () => this.typing.delete(stop)
  }

  /** The turn ended; a waking fact it never saw starts the next one. */
  turnEnded(missedWake?: string): void {
    this.typing.clear()
    this.gate.turnEnded()
    if (missedWake) this.gate.wake(missedWake)
  }

  stop(): void {
    this.gate.stop()
  }
}
