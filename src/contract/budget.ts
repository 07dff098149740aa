// The budget gate as the model calls see it (SPEC §22 "What it may cost"): who pays for a request,
// whether it may go, and what it cost. The book behind it (src/budgets/) is plugin-wide; each runtime
// gets a gate bound to its profile, so a payer names only the conversation and the people.
import type { OwnerBook, TurnAuthor } from './authors'
import type { TurnState } from './tool'

/** The budgets of SPEC §22, lowest scope last. */
export type BudgetName = 'day' | 'perProfileDay' | 'perChannelDay' | 'perUserDay'

/** Who pays for a request besides `all` and the profile. */
export interface Payer {
  /** the conversation's key; absent: a call no conversation made (only all/profile pay) */
  conversation?: string
  /** 'platform:userId' of the authors of the facts that woke the turn; the cost is shared equally */
  users?: readonly string[]
  /** their display names, by 'platform:userId': what the console shows for their keys */
  names?: Readonly<Record<string, string>>
  /** one of trust.owners woke the turn: perChannelDay and perUserDay never hold it */
  owner?: boolean
}

/** A request past a budget, and what to do with it: another model, nothing, or nothing after the reply. */
export interface BudgetHold {
  budget: BudgetName
  key: string
  spent: number
  limit: number
  then: 'fallback' | 'silent' | 'reply'
  /** then: fallback — the model to use instead */
  fallback?: string
}

export interface BudgetGate {
  /** Before each request, a few Map lookups: undefined when it may go. */
  check(payer: Payer | undefined): BudgetHold | undefined
  /** After each counted request: its cost at its model's price. */
  charge(payer: Payer | undefined, cost: number): void
  /** budgets.reply for `conversation` the first time it is asked this day, else undefined (also when empty). */
  replyOnce(conversation: string): string | undefined
}

/** A request the budget holds: what a vision, embedding or speech caller returns to the model. */
export class BudgetExceeded extends Error {
  override name = 'BudgetExceeded'
  constructor(readonly hold: BudgetHold) {
    super(`the ${hold.budget} budget is spent for today (${round(hold.spent)} of ${round(hold.limit)}); no more model calls here until tomorrow`)
  }
}

const round = (n: number) => Number(n.toPrecision(3))

/** Who pays for what a turn asks: its conversation and the authors who woke it (none for a wait or idle wake). */
export function turnPayer(turn: TurnState): Payer {
  return payerOf(turn.conversation, turn.authors ?? [], turn.owners)
}

/** The payer of a conversation's call woken by `authors` (a turn's, or the judge's before the turn). */
export function payerOf(conversation: string | undefined, authors: readonly TurnAuthor[], book?: OwnerBook): Payer {
  const users = authors.map(a => `${a.platform}:${a.id}`)
  const owners = book?.owners
  const named = authors.filter(a => a.name)
  const names = named.length ? Object.fromEntries(named.map(a => [`${a.platform}:${a.id}`, a.name!])) : undefined
  return { ...conversation ? { conversation } : {}, users, ...names ? { names } : {}, owner: !!owners && users.some(u => owners.has(u)) }
}
