// Reactions people added (SPEC §23) as the model reads them: one line the runtime writes, the
// people by the name rule (SPEC §22), the emoji with their counts, the message by its #id.
import type { ReactionTally } from './entries'
import { displayName, shownId } from '../util/transcript-text'

/** an emoji as the edge gave it is short; a longer one is cut (a platform's custom emoji name) */
const EMOJI_CHARS = 16

/** `alice (1), bob (2) and 8 others reacted 👍×7 ❤️×3 to #123` */
export function reactionWords(t: ReactionTally): string {
  const people = t.by.map(p => p.id ? `${displayName(p.name, p.id)} (${shownId(p.id)})` : 'someone')
  if (t.others) people.push(`${t.others} ${t.others === 1 ? 'other' : 'others'}`)
  const who = people.length > 1 ? `${people.slice(0, -1).join(', ')} and ${people[people.length - 1]}` : people[0] ?? 'someone'
  const emoji = t.emoji.map(([e, n]) => {
    const shown = displayName(e, '?', EMOJI_CHARS)
    return n > 1 ? `${shown}×${n}` : shown
  })
  if (t.more) emoji.push(`and ${t.more} more`)
  return `${who} reacted ${emoji.join(' ')} to #${shownId(t.to)}`
}
