// What a fact does on arrival (SPEC §15): a fact that would wake the mind is held back, stored and
// shown but not waking, when it is stale (a backlog after downtime, by the platform's own
// timestamp), when another bot wrote it (a loop guard, unless wake.fromBots), or when its author
// already woke the mind `perUser.count` times in the window. And whether it interrupts a send
// that is still typing (`timing.yield`).
import { DEFAULT_STALE_SECONDS, DEFAULT_TIMING } from '../config/defaults'
import type { ProfileConfig } from '../config/types'
import type { Fact } from '../history/entries'

/** Wake reasons that address the mind (a private message, a mention, a quote, a name). */
export function addressed(wake: string | undefined): boolean {
  return wake === 'direct' || wake === 'mention' || wake === 'quote' || !!wake?.startsWith('name:')
}

export class Arrivals {
  /** per user: the times they woke the mind, inside the perUser window */
  private wakes = new Map<string, number[]>()

  constructor(private profile: ProfileConfig) {}

  private get timing() {
    return this.profile.timing ?? DEFAULT_TIMING
  }

  /** Why a waking fact does not wake (undefined: it wakes); counts the wake against its author. */
  held(fact: Fact, wake: string | undefined, now: number): string | undefined {
    if (!wake) return undefined
    const w = this.profile.wake
    if (fact.fromBot && !w.fromBots) return 'bot'
    const stale = (w.staleAfterSeconds ?? DEFAULT_STALE_SECONDS) * 1000
    if (stale > 0 && now - fact.at > stale) return 'stale'
    const { count, seconds } = this.timing.perUser
    if (count > 0) {
      const since = now - seconds * 1000
      const times = (this.wakes.get(fact.user.id) ?? []).filter(t => t > since)
      if (times.length >= count) {
        this.wakes.set(fact.user.id, times)
        return 'perUser'
      }
      times.push(now)
      this.wakes.set(fact.user.id, times)
      // a busy channel with thousands of authors: forget those whose window passed
      if (this.wakes.size > 1000) for (const [user, t] of this.wakes) if (!t.some(x => x > since)) this.wakes.delete(user)
    }
    return undefined
  }

  /** Whether a fact arriving while the mind types stops the messages not yet sent. */
  interrupts(wake: string | undefined, held: string | undefined): boolean {
    const policy = this.timing.yield
    // a fact that may not wake the mind may not silence it either
    if (policy === 'never' || held) return false
    return policy === 'any' || addressed(wake)
  }
}
