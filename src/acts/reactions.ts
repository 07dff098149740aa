// QQ's reactions (SPEC §23): the ids NapCat's `set_msg_emoji_like` takes and its
// `group_msg_emoji_like` notice gives, and what the mind writes and reads for them: a QQ face's
// name (`赞`) or a Unicode emoji (`👍`). The data is NapCat's face table (qq-reactions.json names
// its source and commit): a system face's id is its QSid; a Unicode emoji's is its code point.
import table from './qq-reactions.json'

/** One reaction QQ has: its id on the platform, and how the mind writes and reads it. */
export interface Reaction {
  id: string
  /** the Unicode emoji, or the face's name */
  shown: string
  /** a system face (type 1 on QQ) or a Unicode emoji (type 2) */
  kind: 'face' | 'emoji'
}

const byId = new Map<string, Reaction>()
const byWritten = new Map<string, Reaction>()

// a name several faces share is the classic one's (the lowest id): `微笑` is 14, not a later super face
const faces = [...table.faces].sort((a, b) => Number(a[0]) - Number(b[0]))
for (const [id, name] of faces) {
  const r: Reaction = { id, shown: name, kind: 'face' }
  byId.set(id, r)
  if (!byWritten.has(name)) byWritten.set(name, r)
}
for (const [id, char, name] of table.emoji) {
  if (byId.has(id)) continue
  const r: Reaction = { id, shown: char, kind: 'emoji' }
  byId.set(id, r)
  byWritten.set(char, r)
  // its Chinese name too, unless a face holds it
  if (!byWritten.has(name)) byWritten.set(name, r)
}

/** Every reaction of the table, by id (tests, the console). */
export const REACTIONS: ReadonlyMap<string, Reaction> = byId

/**
 * The reaction the mind wrote: a Unicode emoji (a trailing variation selector ignored) or a face's
 * name (with or without the leading `/`); undefined when QQ has no such reaction.
 */
export function reactionOf(written: string): Reaction | undefined {
  if (typeof written !== 'string' || written.length > 16) return undefined
  const w = written.trim().replace(/^\//, '')
  return byWritten.get(w) ?? byWritten.get(w.replace(/\uFE0F/g, ''))
}

/** The reaction a notice names by id; undefined for an id the table does not have. */
export function reactionById(id: string | number): Reaction | undefined {
  return byId.get(String(id))
}
