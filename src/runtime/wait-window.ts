// An armed wait declaration: a time window and a message window, the first satisfied fires once
// (SPEC §4.3). In memory only.
import type { WaitDeclaration } from '../tools/types'

export type WaitFired = { window: 'time'; seconds: number } | { window: 'messages'; messages: number }

export class WaitWindow {
  private seen = 0
  private cancelTimer?: () => void
  private done = false

  constructor(readonly declaration: WaitDeclaration, readonly armedAt: number,
    private fire: (why: WaitFired) => void, setTimer: (fn: () => void, ms: number) => () => void) {
    if (declaration.seconds !== undefined) {
      this.cancelTimer = setTimer(() => this.trigger({ window: 'time', seconds: declaration.seconds }), declaration.seconds * 1000)
    }
  }

  /** Counts one new fact of the conversation. */
  countFact(): void {
    if (this.done || this.declaration.messages === undefined) return
    if (++this.seen >= this.declaration.messages) this.trigger({ window: 'messages', messages: this.seen })
  }

  get factsSeen(): number {
    return this.seen
  }

  cancel(): void {
    this.done = true
    this.cancelTimer?.()
  }

  private trigger(why: WaitFired): void {
    if (this.done) return
    this.cancel()
    this.fire(why)
  }
}

export function wakeNote(why: WaitFired): string {
  return why.window === 'time'
    ? `[wake: the ${why.seconds} s you chose to wait have passed]`
    : `[wake: ${why.messages} new message${why.messages === 1 ? '' : 's'} arrived since you chose to wait]`
}
