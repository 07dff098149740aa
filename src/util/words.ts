// The one word splitter of recall and tool_search: where the words of a text are, which script
// each is written in, and the stem of an English word. What each layer makes of the words (stop
// words, pairs of characters, weights) stays its own.
// - Han and kana are written without spaces: ICU's dictionary (`Intl.Segmenter`) cuts them, as it
//   does Thai, Lao, Khmer and Myanmar. Elsewhere one regular expression finds the same words faster.
// - Korean puts spaces between its words, so Hangul is a spaced script here, not CJK: a Korean word
//   is a word like a Russian or an English one, never cut into pairs of syllables.
import { stem } from 'porter2'

export interface WordSegment {
  segment: string
  /** where it stands in the text (UTF-16 units) */
  index: number
  /** false for spaces and punctuation */
  isWordLike?: boolean
}

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' })
/** scripts written without spaces between words that kotodama cuts into characters and pairs */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u
const HAN = /^\p{Script=Han}$/u
const LATIN = /^[a-z]+$/
/** scripts ICU segments with a dictionary: Han, kana, Thai, Lao, Khmer, Myanmar */
const DICTIONARY_SCRIPTS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u
/** a word as ICU cuts one in space-separated text: letters and digits, inner apostrophes, decimal points */
const WORD = /[\p{L}\p{M}\p{N}_]+(?:['\u2019.][\p{L}\p{M}\p{N}_]+|(?<=\p{N}),\p{N}+)*/gu

/** The words and gaps of a text: ICU's word segmentation where a script needs a dictionary, else the words alone. */
export function segments(text: string): Iterable<WordSegment> {
  if (DICTIONARY_SCRIPTS.test(text)) return segmenter.segment(text)
  const out: WordSegment[] = []
  for (const m of text.matchAll(WORD)) out.push({ segment: m[0], index: m.index!, isWordLike: true })
  return out
}

/** A word holding Han or kana (Chinese, Japanese); Hangul is not one. */
export const isCjk = (word: string): boolean => CJK.test(word)

/** One Han character. */
export const isHan = (char: string): boolean => HAN.test(char)

/** A lower-case word of the letters a to z, the words the English stemmer knows. */
export const isLatin = (word: string): boolean => LATIN.test(word)

/** The Porter2 (Snowball English) stem of a lower-case Latin word: "scheduling" → "schedul". */
export const stemOf = (word: string): string => stem(word)

/** Every two neighbouring characters of a word: 天气预报 → 天气, 气预, 预报. */
export function pairsOf(word: string): string[] {
  const out: string[] = []
  for (let i = 0; i + 2 <= word.length; i++) out.push(word.slice(i, i + 2))
  return out
}
