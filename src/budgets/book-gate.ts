// One runtime's gate on the plugin's budget book (SPEC §22): which keys a request pays for, whether
// one of them is spent, and who is exempt. A turn one of trust.owners woke is never held by
// perChannelDay or perUserDay (the owner talks to their own bot); day and perProfileDay still hold,
// they protect the owner's money. perUserDay holds a turn only when every author who woke it is past
// it: a person within their budget still gets an answer, in a turn whose cost they share.
import type { BudgetGate, BudgetHold, BudgetName, Payer } from '../contract/budget'
import type { BudgetsConfig } from '../config/types'

/** What the gate needs of the book. */
export interface GateBook {
  readonly config: BudgetsConfig
  /** rolls over at midnight; once a request */
  day(): string
  spentNow(key: string): number
  add(key: string, amount: number, label?: string): void
  replyOnce(channelKey: string): string | undefined
}

export const ALL_KEY = 'all'
export const profileKey = (profile: string) => `profile:${profile}`
/** a conversation of one runtime: the runtime written `<profile>/<bot>` */
export const channelKey = (profile: string, bot: string, conversation: string) => `channel:${profile}/${bot}/${conversation}`
export const userKey = (user: string) => `user:${user}`

export function bookGate(book: GateBook, profile: string, bot: string): BudgetGate {
  const own = profileKey(profile)
  const channels = new Map<string, string>()
  const channel = (conversation: string) => {
    let k = channels.get(conversation)
    if (!k) channels.set(conversation, k = channelKey(profile, bot, conversation))
    return k
  }
  const hold = (budget: BudgetName, key: string, spent: number, limit: number): BudgetHold => {
    const c = book.config
    const then = c.onExceeded === 'fallback' && !c.fallback ? 'silent' : c.onExceeded
    return { budget, key, spent, limit, then, ...then === 'fallback' ? { fallback: c.fallback } : {} }
  }
  const over = (budget: BudgetName, key: string, limit: number) => {
    if (!limit) return undefined
    const spent = book.spentNow(key)
    return spent >= limit ? hold(budget, key, spent, limit) : undefined
  }
  return {
    check(payer) {
      book.day()
      const c = book.config
      const held = over('day', ALL_KEY, c.day) ?? over('perProfileDay', own, c.perProfileDay)
      if (held || !payer || payer.owner) return held
      if (payer.conversation) {
        const h = over('perChannelDay', channel(payer.conversation), c.perChannelDay)
        if (h) return h
      }
      const users = payer.users
      if (!c.perUserDay || !users?.length) return undefined
      let first: BudgetHold | undefined
      for (const u of users) {
        const h = over('perUserDay', userKey(u), c.perUserDay)
        if (!h) return undefined
        first ??= h
      }
      return first
    },
    charge(payer: Payer | undefined, cost: number) {
      if (!(cost > 0)) return
      book.add(ALL_KEY, cost)
      book.add(own, cost)
      if (payer?.conversation) book.add(channel(payer.conversation), cost)
      const users = payer?.users
      if (users?.length) for (const u of users) book.add(userKey(u), cost / users.length, payer?.names?.[u])
    },
    replyOnce(conversation) {
      return book.replyOnce(channel(conversation))
    },
  }
}
