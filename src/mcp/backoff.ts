// Restart delays after a crash or a failed start (SPEC §14): 1 s, doubling up to 60 s. A server
// that stayed up for the longest delay starts over at the first one.

export interface BackoffOptions {
  firstMs: number
  maxMs: number
}

export const DEFAULT_BACKOFF: BackoffOptions = { firstMs: 1000, maxMs: 60_000 }

export class Backoff {
  private next: number

  constructor(private o: BackoffOptions = DEFAULT_BACKOFF) {
    this.next = o.firstMs
  }

  /** The delay before the next attempt; each call doubles the one after it. */
  take(): number {
    const ms = this.next
    this.next = Math.min(this.next * 2, this.o.maxMs)
    return ms
  }

  /** Called when a connection ends: one that lived `upMs` long enough earns a fresh start. */
  ended(upMs: number): void {
    if (upMs >= this.o.maxMs) this.next = this.o.firstMs
  }
}
