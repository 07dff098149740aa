// The one permission check (SPEC §22 "Who may steer it"): whether the people who woke a turn may
// have an act done that needs a role. It reads the turn's authors and the owner book the runtime
// put on the turn, never an argument the model fills in. Every author of the waking facts must
// hold the role: a member who writes in the same burst as an admin does not borrow the admin's.
import type { OwnerBook, TurnAuthor } from '../contract/authors'
import type { TurnState } from '../contract/tool'

/** What an act needs: anyone; a group's owner or admin (or the bot owner's people); the bot owner's people. */
export type Need = 'anyone' | 'admin' | 'owner'

/** Koishi authority that makes someone the bot owner's (as the commands read it: command-owners.ts). */
export const OWNER_AUTHORITY = 4
/** Koishi authority that counts as a group admin's everywhere (Koishi's own admins). */
export const ADMIN_AUTHORITY = 3

/** The result a refused act returns; nothing else happens. */
export interface NotAllowed {
  ok: false
  error: { name: 'NotAllowed'; message: string }
}

const WHO: Record<Exclude<Need, 'anyone'>, string> = {
  admin: 'a group owner or admin (or the bot owner)',
  owner: 'the bot owner',
}

/** Whether the turn's authors may have an act done that needs `need`. A turn no person woke: only 'anyone'. */
export async function allowed(turn: TurnState, need: Need): Promise<boolean> {
  if (need === 'anyone') return true
  const authors = turn.authors ?? []
  if (!authors.length) return false
  for (const a of authors) if (!await holds(a, need, turn.owners)) return false
  return true
}

/** The refusal naming the role the act needs; it says it is final, where models otherwise retry another way. */
export function notAllowed(need: Exclude<Need, 'anyone'>, act = 'this'): NotAllowed {
  const message = `only ${WHO[need]} may ask for ${act}, and this turn was not woken by such a person's messages alone; `
    + 'it is decided: tell them if they asked, do not try another way'
  return { ok: false, error: { name: 'NotAllowed', message } }
}

async function holds(a: TurnAuthor, need: Exclude<Need, 'anyone'>, book: OwnerBook | undefined): Promise<boolean> {
  if (book?.owners.has(`${a.platform}:${a.id}`)) return true
  if (a.bot) return false
  if (need === 'admin' && (a.role === 'owner' || a.role === 'admin')) return true
  const authority = await authorityOf(a, book)
  return authority >= (need === 'owner' ? OWNER_AUTHORITY : ADMIN_AUTHORITY)
}

/** A failed lookup holds nothing. */
async function authorityOf(a: TurnAuthor, book: OwnerBook | undefined): Promise<number> {
  try {
    return await book?.authorityOf?.(a.platform, a.id) ?? 0
  } catch {
    return 0
  }
}
