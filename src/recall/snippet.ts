// The text of a hit (SPEC §17): the whole message when it is short, else at most 300 UTF-16 units
// around its first matching word, with `…` where it was cut.
import { safeCut } from '../util/surrogate'
import { analyze } from './analyze'
import { flattenLines } from '../util/transcript-text'

export const SNIPPET_UNITS = 300

export function snippet(text: string, found: ReadonlySet<string>, max = SNIPPET_UNITS): string {
  // one line, whatever line breaks it had (SPEC §22)
  const flat = flattenLines(text).trim()
  if (flat.length <= max) return flat
  let at = flat.length
  for (const t of analyze(flat)) if (t.start < at && found.has(t.term)) at = t.start
  if (at === flat.length) at = 0
  // the match a third into the window, so it is read with what leads to it
  let start = Math.max(0, Math.min(at - Math.floor(max / 3), flat.length - max + 1))
  start = safeCut(flat, start)
  const lead = start > 0 ? '…' : ''
  const room = max - lead.length - 1
  const end = safeCut(flat, start + room)
  return lead + flat.slice(start, end) + (end < flat.length ? '…' : '')
}
