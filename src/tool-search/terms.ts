// The words tool_search ranks by (SPEC §18): identifiers split on `_`, `-`, `.` and case
// (`getWeatherForecast`, `weather_get-forecast`), words found by the splitter tool_search shares
// with recall (util/words.ts: Chinese and Japanese are cut into words too, Korean is spaced),
// English words stemmed (Porter2: "scheduling" and "schedules" are one word), and every two
// neighbouring characters of a longer CJK word added, so "天气" finds "天气预报" whichever way the
// segmenter cut it.
import { isCjk, isLatin, pairsOf, segments, stemOf } from '../util/words'

/** Words that tell nothing about a task; a query made of them only finds nothing. */
const STOP = new Set((
  'a an and any are as at be by can could do does for from get has have how i if in into is it its me my need of on or our please should some '
  + 'that the their them then there these this those to use used uses using want was we what when which while will with would you your'
).split(' '))
/** a word of letters alone, in any script (Korean, Russian, accented Latin …) */
const LETTERS = /^[\p{L}\p{M}]+$/u

/** Splits identifiers: `getHTTPResponse_code-v2` → `get HTTP Response code v2`. */
export function splitIdentifiers(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-./:]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
}

/** The words of a text as they are indexed and searched. */
export function terms(text: string): string[] {
  const out: string[] = []
  for (const piece of splitIdentifiers(text)) {
    for (const { segment, isWordLike } of segments(piece)) {
      if (!isWordLike) continue
      const word = segment.toLowerCase()
      if (STOP.has(word)) continue
      if (isLatin(word)) {
        out.push(word.length > 2 ? stemOf(word) : word)
      } else if (isCjk(word)) {
        out.push(word)
        if (word.length > 2) out.push(...pairsOf(word))
      } else out.push(word)
    }
  }
  return out
}

/** The words a reader would recognise (no stems), for a source's one-line summary. */
export function plainWords(text: string): string[] {
  const out: string[] = []
  for (const piece of splitIdentifiers(text)) {
    for (const { segment, isWordLike } of segments(piece)) {
      const word = segment.toLowerCase()
      if (!isWordLike || STOP.has(word)) continue
      if (isLatin(word) ? word.length > 3 : word.length > 1 && (isCjk(word) || LETTERS.test(word))) out.push(word)
    }
  }
  return out
}
