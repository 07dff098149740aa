// A message's platform id as a term of the postings (docs/recall.md "Finding a message by its id"):
// a history:// URL names a message by the id its line shows, and a segment finds it by one lookup.
// The term starts with NUL, which no word of a text or a query holds, so it never matches a query,
// and it is not counted in a message's length (BM25 sees the words alone).

const PREFIX = '\u0000'

/** The postings term of a message id. */
export function idTerm(id: string): string {
  return PREFIX + id
}
