// Facts that arrive while a turn runs (SPEC §4.6): the turn sees them at its next step, when they
// move into the history; what it never saw moves there when it ends (or the conversation stops).
// Each fact that moves counts toward a pending wait, as a fact between turns does.
import type { Entry, Fact } from '../history/entries'

export interface InboxTarget {
  append(entries: Entry[]): void
  /** a fact entered the history from the inbox */
  counted(fact: Fact): void
}

export class TurnInbox {
  private held: Entry[] = []

  constructor(private to: InboxTarget) {}

  get empty(): boolean {
    return !this.held.length
  }

  hold(entries: Entry[]): void {
    this.held.push(...entries)
  }

  /** Moves the held entries into the history; returns them. */
  take(): Entry[] {
    const moved = this.held
    this.held = []
    if (moved.length) {
      this.to.append(moved)
      for (const e of moved) if (e.type === 'fact') this.to.counted(e.fact)
    }
    return moved
  }
}
