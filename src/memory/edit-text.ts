// The text of a file after `content`, `append` or `edit` (SPEC §13), as a pure function of the
// text before; remove and moveTo change no text.
import { ResourceError } from '../resources/errors'
import type { WriteRequest } from '../resources/types'
import { quote } from '../util/clip'

export type TextChange = Extract<WriteRequest, { content: string } | { append: string } | { edit: { find: string; replace: string } }>

export function changesText(r: WriteRequest): r is TextChange {
  return 'content' in r || 'append' in r || 'edit' in r
}

/** `before` undefined: the file does not exist. Throws not_found, no_match or ambiguous_match. */
export function nextText(before: string | undefined, r: TextChange, url: string): string {
  if ('content' in r) return r.content
  if ('append' in r) return (before ?? '') + r.append
  if (before === undefined) throw new ResourceError('not_found', `${url} does not exist; edit changes an existing file (create it with content)`)
  const { find, replace } = r.edit
  const at = before.indexOf(find)
  if (at < 0) throw new ResourceError('no_match', `${quote(find)} does not occur in ${url}; read the file and copy the exact text`)
  const matches = countMatches(before, find, at)
  if (matches > 1) {
    const e = new ResourceError('ambiguous_match', `${quote(find)} occurs ${matches} times in ${url}; include more of the surrounding text so it occurs once`)
    e.matches = matches
    throw e
  }
  return before.slice(0, at) + replace + before.slice(at + find.length)
}

/** Occurrences that do not overlap, counted from the first one at `first`. */
function countMatches(text: string, find: string, first: number): number {
  let n = 0
  for (let at = first; at >= 0; at = text.indexOf(find, at + find.length)) n++
  return n
}
