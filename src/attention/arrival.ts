// What a fact does on arrival (SPEC §15): a fact that would wake the mind is held back, stored and
// shown but not waking, when it is stale (a backlog after downtime, by the platform's own
// timestamp), when another bot wrote it (a loop guard, unless wake.fromBots), when its author is
// one of `wake.ignoreUsers` (SPEC §22: never, whatever fromBots says), or when its author already
// woke the mind `perUser.count` times in the window. And whether it interrupts a send that is
// still typing (`timing.yield`), and whether it counts toward a `wait({messages})` (SPEC §22).
import { DEFAULT_STALE_SECONDS, DEFAULT_TIMING } from '../config/defaults'
import type { ProfileConfig, WakeConfig } from '../config/types'
import type { Fact } from '../history/entries'
import { platformOf } from '../claims/bot-id'

/** Whether the fact's author is one of `wake.ignoreUsers`: a user id as the platform gives it, or 'platform:userId'. */
export function ignoredAuthor(fact: Fact, wake: Pick<WakeConfig, 'ignoreUsers'>): boolean {
  const list = wake.ignoreUsers
  if (!list?.length) return false
  const id = fact.user.id
  const platform = platformOf(fact.bot)
  return list.includes(id) || list.includes(`${platform}:${id}`)
}

/** A fact the mind does not heed (SPEC §22): an ignored user's, or another bot's unless wake.fromBots. */
export function unheeded(fact: Fact, wake: WakeConfig): boolean {
  return ignoredAuthor(fact, wake) || (!!fact.fromBot && !wake.fromBots)
}

/**
 * A fact that is not an arrival: history pulled after downtime (SPEC §19), or reactions people
 * added (SPEC §23). Stored and shown, it never wakes, restarts a burst wait, stops a send or fills a wait.
 */
export function passive(fact: Fact): boolean {
  return !!fact.pulled || fact.notice === 'reaction'
}

/** Whether a fact counts toward a pending `wait({messages})`: a heeded one, delivered live. */
export function fillsWait(fact: Fact, wake: WakeConfig): boolean {
  return !passive(fact) && !unheeded(fact, wake)
}

/** A person wrote (or poked): not another bot, not an ignored user, not history pulled after downtime, not a join or leave. */
export function humanWrote(fact: Fact, wake: WakeConfig): boolean {
  if (fact.pulled || fact.fromBot || ignoredAuthor(fact, wake)) return false
  return !fact.notice || fact.notice === 'poke'
}

/** Wake reasons that address the mind (a private message, a mention, a quote, a poke, a name). */
export function addressed(wake: string | undefined): boolean {
  return wake === 'direct' || wake === 'mention' || wake === 'quote' || wake === 'poke' || !!wake?.startsWith('name:')
}

/** Pokes one person may wake the mind with per minute while perUser is off: a poke storm is not a flood of turns (SPEC §19). */
export const POKE_LIMIT = { count: 2, seconds: 60 }

export class Arrivals {
  /** per user: the times they woke the mind, inside the perUser window */
  private wakes = new Map<string, number[]>()
  private pokes = new Map<string, number[]>()

  /** `muted`: the channel's mind may not speak now (a ban, a pause): its wakes are held */
  constructor(private profile: ProfileConfig, private muted?: (channel: string) => boolean) {}

  private get timing() {
    return this.profile.timing ?? DEFAULT_TIMING
  }

  /** Why a waking fact does not wake (undefined: it wakes); counts the wake against its author. */
  held(fact: Fact, wake: string | undefined, now: number): string | undefined {
    if (!wake) return undefined
    if (this.muted?.(fact.channel)) return 'muted'
    const w = this.profile.wake
    if (ignoredAuthor(fact, w)) return 'ignored'
    if (fact.fromBot && !w.fromBots) return 'bot'
    const stale = (w.staleAfterSeconds ?? DEFAULT_STALE_SECONDS) * 1000
    if (stale > 0 && now - fact.at > stale) return 'stale'
    const { count, seconds } = this.timing.perUser
    if (count > 0) return spent(this.wakes, fact.user.id, count, seconds, now) ? 'perUser' : undefined
    if (wake === 'poke') return spent(this.pokes, fact.user.id, POKE_LIMIT.count, POKE_LIMIT.seconds, now) ? 'perUser' : undefined
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

/** Whether `user` used up `count` wakes in the window; if not, this one is counted. */
function spent(wakes: Map<string, number[]>, user: string, count: number, seconds: number, now: number): boolean {
  const since = now - seconds * 1000
  const times = (wakes.get(user) ?? []).filter(t => t > since)
  if (times.length >= count) {
    wakes.set(user, times)
    return true
  }
  times.push(now)
  wakes.set(user, times)
  // a busy channel with thousands of authors: forget those whose window passed
  if (wakes.size > 1000) for (const [u, t] of wakes) if (!t.some(x => x > since)) wakes.delete(u)
  return false
}
