// When a conversation's next turn starts (SPEC §15): the mind answers the conversation, not each
// line. A waking fact starts a wait of `debounceMs`; every new fact of the conversation restarts
// it, up to `debounceMaxMs` after the first waking one; then one turn answers them all. A turn
// never starts sooner than `cooldownSeconds` after the last one ended, whatever woke it (SPEC
// §22: a wait window or an explicit wake too): wakes in between are merged into the next turn,
// never dropped. With a judge, a wake by a keyword, a name or a wait window first asks it
// (judge.ts); a no is recorded, the facts stay in the history.
import { DEFAULT_TIMING } from '../config/defaults'
import type { TimingConfig } from '../config/types'
import type { TurnAuthor } from '../contract/authors'
import type { Clock, Timer } from '../util/clock'
import { judged, type Verdict } from './judge'

/** Why a turn starts, and what it answers. */
export interface TurnStart {
  reason: string
  /** a note the mind reads at the start of the turn (why it woke up) */
  note?: string
  /** when the first waking fact of the turn arrived: typing credit counts from here (§4.1) */
  since?: number
  /** waking facts the turn answers */
  merged?: number
  /** from the first of them to the start */
  waitedMs?: number
  /** a wait window that passed while kotodama was not running */
  late?: boolean
  /** cross mode: the private chat this turn is held in (one that woke an earlier turn held elsewhere, SPEC §22) */
  chat?: string
  /** a part's turn, looked at again when it actually starts: false, it does not (an idle wake queued behind a turn the bot answered in) */
  wanted?(): boolean
  /** who the turn acts for besides the authors of its waking facts (a schedule: the person who asked, SPEC §25) */
  authors?: readonly TurnAuthor[]
  /** a promise kept (a schedule, SPEC §25): never joined into a turn the judge may decline */
  kept?: boolean
}

/**
 * Turns asked for together, as one: the first one's reason, place and counts, every note in order,
 * every author, late when any is. Their `wanted` was asked before (the joined turn is wanted).
 */
export function joinStarts(starts: readonly TurnStart[]): TurnStart {
  if (starts.length === 1) return starts[0]
  const [first] = starts
  const { wanted: _, ...joined }: TurnStart = { ...first }
  const notes = starts.map(s => s.note).filter(Boolean)
  if (notes.length) joined.note = notes.join('\n')
  const authors = new Map<string, TurnAuthor>()
  for (const s of starts) for (const a of s.authors ?? []) if (!authors.has(`${a.platform}:${a.id}`)) authors.set(`${a.platform}:${a.id}`, a)
  if (authors.size) joined.authors = [...authors.values()]
  if (starts.some(s => s.late)) joined.late = true
  if (starts.some(s => s.kept)) joined.kept = true
  return joined
}

export interface GateDeps {
  clock: Clock
  timing(): TimingConfig | undefined
  /** starts the turn now, or right after the running one */
  start(turn: TurnStart): void
  /** asks the judge; absent when none is configured */
  judge?(reason: string): Promise<Verdict>
  /** the judge said no (or nothing): recorded for the owner */
  declined(reason: string, why: string): void
}

interface Pending {
  first: number
  last: number
  /** waking facts' reasons */
  reasons: string[]
  /** turns asked for within the cooldown (a wait window, an explicit wake, a schedule), in order */
  asked: TurnStart[]
  timer?: Timer
}

export class TurnGate {
  private pending?: Pending
  private endedAt = -Infinity
  private judging = 0
  private stopped = false

  constructor(private deps: GateDeps) {}

  private get timing(): TimingConfig {
    return this.deps.timing() ?? DEFAULT_TIMING
  }

  /** A wake is waiting for its turn (the conversation must stay loaded). */
  get waiting(): boolean {
    return !!this.pending || this.judging > 0
  }

  /** A waking fact arrived. */
  wake(reason: string): void {
    if (this.stopped) return
    const now = this.deps.clock.now()
    if (!this.pending) this.pending = { first: now, last: now, reasons: [], asked: [] }
    this.pending.reasons.push(reason)
    this.pending.last = now
    this.schedule()
  }

  /** Any fact arrived: a burst in progress waits for it. */
  heard(): void {
    if (!this.pending) return
    this.pending.last = this.deps.clock.now()
    this.schedule()
  }

  /** A turn ended: the cooldown counts from now. */
  turnEnded(): void {
    this.endedAt = this.deps.clock.now()
    if (this.pending) this.schedule()
  }

  /** Starts `turn` (after the cooldown), after asking the judge when its reason is one it is asked about. */
  consider(turn: TurnStart): void {
    if (this.stopped) return
    const now = this.deps.clock.now()
    if (now < this.endedAt + this.timing.cooldownSeconds * 1000) {
      this.pending ??= { first: now, last: now, reasons: [], asked: [] }
      this.pending.asked.push(turn)
      return this.schedule()
    }
    const judge = this.deps.judge
    if (!judge || !judged(turn.reason)) return this.deps.start(turn)
    this.judging++
    judge(turn.reason).then(verdict => {
      if (this.stopped) return
      if (verdict.speak) this.deps.start(turn)
      else this.deps.declined(turn.reason, verdict.why)
    }).finally(() => this.judging--)
  }

  stop(): void {
    this.stopped = true
    this.pending?.timer?.cancel()
    this.pending = undefined
  }

  private schedule(): void {
    const p = this.pending!
    const t = this.timing
    // a turn asked for alone waits for the cooldown only, not for a burst
    const burst = p.reasons.length ? Math.min(p.last + t.debounceMs, p.first + Math.max(t.debounceMs, t.debounceMaxMs)) : -Infinity
    const at = Math.max(burst, this.endedAt + t.cooldownSeconds * 1000)
    p.timer?.cancel()
    const wait = at - this.deps.clock.now()
    if (wait <= 0) {
      // nothing to wait for (debounceMs 0, no cooldown): the turn starts at once, as it always did
      p.timer = undefined
      this.fire()
      return
    }
    p.timer = this.deps.clock.setTimeout(() => this.fire(), wait)
  }

  private fire(): void {
    const p = this.pending
    if (!p || this.stopped) return
    this.pending = undefined
    if (!p.reasons.length) {
      for (const turn of p.asked) this.consider(turn)
      return
    }
    // a private message, a mention or a quote among them: it wakes whatever the judge would say
    const reason = p.reasons.find(r => !judged(r)) ?? p.reasons[0]
    // turns asked for meanwhile are answered by this one (their notes are read with it); a promise
    // is not left to the judge: it starts on its own (joined in the runner when this one starts too)
    const joined = p.asked.filter(t => !t.kept)
    const burst: TurnStart = { reason, since: p.first, merged: p.reasons.length, waitedMs: this.deps.clock.now() - p.first }
    this.consider(joinStarts([burst, ...joined]))
    for (const turn of p.asked) if (turn.kept) this.consider(turn)
  }
}
