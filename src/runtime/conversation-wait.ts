// A conversation's pending wait (SPEC §4.3, §15): armed when a turn that declared one ends, stored
// in the history and the home's index first so a restart finds it, restored from the history's
// tail, counting the facts that arrive, and turned into a turn request when a window fires.
import type { WaitDeclaration } from '../contract/tool'
import type { Entry, Fact } from '../history/entries'
import type { Clock } from '../util/clock'
import type { TurnRequest } from './turn-port'
import { pendingWait, type WaitIndexPort } from './durable-waits'
import { WaitWindow, wakeNote, type RestoredWait, type WaitFired } from './wait-window'

export interface ConversationWaitDeps {
  clock: Clock
  /** the runtime's index of pending waits, for this conversation's key */
  index?: WaitIndexPort
  append(entries: Entry[]): void
  /** whether a fact counts toward a message window (SPEC §22) */
  fills(fact: Fact): boolean
  /** a window fired: the turn it asks for */
  fire(req: TurnRequest): void
}

export class ConversationWait {
  current?: WaitWindow

  constructor(private deps: ConversationWaitDeps) {}

  /** A wait of the history that no turn followed is pending again, counted from its stored time. */
  restore(entries: Entry[], more: boolean): void {
    const { index, clock } = this.deps
    const pending = pendingWait(entries, more, index?.stored(), f => this.deps.fills(f))
    if (!pending) return index?.ended()
    const { at, ...declaration } = pending.wait
    this.start(declaration, at, { now: clock.now(), seen: pending.seen })
    index?.armed(pending.wait)
  }

  /** A turn ended declaring a wait: into the history and the index first. `start: false` while stopping. */
  arm(declaration: WaitDeclaration, start: boolean): void {
    const stored = { at: this.deps.clock.now(), ...declaration }
    this.deps.append([{ type: 'wait', ...stored }])
    this.deps.index?.armed(stored)
    // a turn that ended because the conversation stops leaves its wait to the next start
    if (start) this.start(declaration, stored.at)
  }

  /** A fact arrived between turns (or left a turn's inbox): it counts when it fills a wait. */
  countFact(fact: Fact): void {
    if (this.deps.fills(fact)) this.current?.countFact()
  }

  /** A turn starts or the history is reset: the wait is over. `ended: false` when only stopping (it stays pending). */
  cancel(ended = true): void {
    this.current?.cancel()
    this.current = undefined
    if (ended) this.deps.index?.ended()
  }

  private start(declaration: WaitDeclaration, at: number, restored?: RestoredWait): void {
    const { clock } = this.deps
    this.current = new WaitWindow(declaration, at, why => {
      this.current = undefined
      // the index keeps the key until the turn starts (a judge may still say no)
      this.deps.fire({ reason: `wait:${why.window}`, note: wakeNote(why), ...(isLate(why) ? { late: true } : {}) })
    }, (fn, ms) => { const t = clock.setTimeout(fn, ms); return () => t.cancel() }, restored)
  }
}

const isLate = (why: WaitFired) => why.window === 'time' && why.lateMs !== undefined
