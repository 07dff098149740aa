// The words tool_search ranks by (SPEC §18): identifiers split on `_`, `-`, `.` and case
// (`getWeatherForecast`, `weather_get-forecast`), words found by `Intl.Segmenter` (so Chinese and
// Japanese are cut into words too), English words stemmed (Porter2: "scheduling" and "schedules"
// are one word), and every two neighbouring characters of a longer CJK word added, so "天气" finds
// "天气预报" whichever way the segmenter cut it.
import { stem } from 'porter2'

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' })

/** Words that tell nothing about a task; a query made of them only finds nothing. */
const STOP = new Set((
  'a an and any are as at be by can could do does for from get has have how i if in into is it its me my need of on or our please should some '
  + 'that the their them then there these this those to use used uses using want was we what when which while will with would you your'
).split(' '))

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/
const LATIN = /^[a-z]+$/

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
    for (const { segment, isWordLike } of segmenter.segment(piece)) {
      if (!isWordLike) continue
      const word = segment.toLowerCase()
      if (STOP.has(word)) continue
      if (LATIN.test(word)) {
        out.push(word.length > 2 ? stem(word) : word)
      } else if (CJK.test(word)) {
        out.push(word)
        if (word.length > 2) for (let i = 0; i + 2 <= word.length; i++) out.push(word.slice(i, i + 2))
      } else out.push(word)
    }
  }
  return out
}

/** The words a reader would recognise (no stems), for a source's one-line summary. */
export function plainWords(text: string): string[] {
  const out: string[] = []
  for (const piece of splitIdentifiers(text)) {
    for (const { segment, isWordLike } of segmenter.segment(piece)) {
      const word = segment.toLowerCase()
      if (!isWordLike || STOP.has(word)) continue
      if (LATIN.test(word) ? word.length > 3 : CJK.test(word) && word.length > 1) out.push(word)
    }
  }
  return out
}
