// Who woke a turn (SPEC §22 "Who may steer it"): the authors of the facts that woke it — those with
// a wake reason, not held back — since the last step or turn, as the permission check reads them.
// A turn no fact woke (a wait, an idle wake, an explicit wake) has none; a schedule's turn acts for
// the person who asked (SPEC §25).
import { platformOf } from '../claims/bot-id'
import type { TurnAuthor } from '../contract/authors'
import type { Entry } from '../history/entries'

/** The authors of the facts that woke the turn whose entry stands (or is about to) at `end`, one each. */
export function turnAuthors(entries: readonly Entry[], end: number): TurnAuthor[] {
  const seen = new Map<string, TurnAuthor>()
  for (let i = end - 1; i >= 0; i--) {
    const e = entries[i]
    if (e.type === 'step' || e.type === 'turn') break
    if (e.type !== 'fact' || !e.wake || e.held) continue
    const { fact } = e
    const platform = platformOf(fact.bot)
    const key = `${platform}:${fact.user.id}`
    // newest first: a person's latest fact says their role
    if (seen.has(key)) continue
    seen.set(key, {
      platform, id: fact.user.id, ...fact.user.name ? { name: fact.user.name } : {},
      ...fact.role ? { role: fact.role } : {}, ...fact.fromBot ? { bot: true } : {},
    })
  }
  return [...seen.values()]
}

/** The waking facts' authors and those the turn was asked for (a schedule's asker, SPEC §25), each once. */
export function withAskedFor(authors: TurnAuthor[], askedFor: readonly TurnAuthor[] | undefined): TurnAuthor[] {
  if (!askedFor?.length) return authors
  const seen = new Set(authors.map(a => `${a.platform}:${a.id}`))
  return [...authors, ...askedFor.filter(a => !seen.has(`${a.platform}:${a.id}`))]
}
