// The analyzer: text → index terms (docs/recall.md "Words"). One analysis serves messages and
// queries, so both meet on the same terms.
// - Words come from the splitter recall shares with tool_search (util/words.ts: ICU's dictionary for
//   Chinese and Japanese, spaces and punctuation elsewhere). Each is NFKC-normalised and lower-cased.
// - Latin words lose a clitic ("caroline's", "don't"), irregular forms become their base form
//   ("went" → "go"), stop words are dropped, and the rest is stemmed with Porter2 (Snowball
//   English), so "researching" and "research" meet.
// - A Chinese or Japanese word of two or more characters also yields each of its Han characters:
//   ICU does not always cut a text the same way ("猫叫" in a sentence, "猫" in a query), and the
//   characters still meet when the words do not. A query gives those characters a weight that
//   shares one word's worth between them, so a message with the whole word ranks first.
import { isCjk, isHan, isLatin, segments, stemOf } from '../util/words'
import { CJK_STOP, CJK_STOP_WORDS, IRREGULAR, STOP } from './words'

export interface Token {
  term: string
  /** where the word stands in the text (UTF-16 units) */
  start: number
  end: number
  /** a word; a pair of Han characters; one Han character of a longer word */
  kind: 'word' | 'pair' | 'char'
}

export interface QueryTerm {
  term: string
  weight: number
}

const HAN_ONLY = /^\p{Script=Han}+$/u
/** particles: a pair holding one is not a word */
const PARTICLE = /[的了是吗吧呢啊呀哦嗯么]/
const CLITICS = new Set(['s', 't', 'll', 've', 're', 'd', 'm', 'nt'])
/** longer tokens (URLs, hashes, keyboard mashing) are not words anyone searches for */
const MAX_TERM = 40

/** A word as a term, or undefined for a stop word. */
export function termOf(word: string): string | undefined {
  let w = word.normalize('NFKC').toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'")
  const apostrophe = w.lastIndexOf("'")
  if (apostrophe > 0) {
    const suffix = w.slice(apostrophe + 1)
    w = CLITICS.has(suffix) ? w.slice(0, apostrophe) : w.replace(/'/g, '')
    if (w === 'won' && suffix === 't') return undefined
  }
  if (!w || w.length > MAX_TERM) return undefined
  w = IRREGULAR.get(w) ?? w
  if (STOP.has(w)) return undefined
  return isLatin(w) ? stemOf(w) : w
}

/** The terms of a text with where each stands. */
export function analyze(text: string): Token[] {
  const out: Token[] = []
  // a stretch of Han words with no function word in it, for the pairs
  let stretch = { start: 0, end: 0 }
  const pairs = (end: number) => {
    for (let at = stretch.start; at + 1 < stretch.end; at++) {
      const pair = text.slice(at, at + 2)
      if (!PARTICLE.test(pair)) out.push({ term: pair, start: at, end: at + 2, kind: 'pair' })
    }
    stretch = { start: end, end }
  }
  for (const s of segments(text)) {
    const word = s.segment
    const norm = word.normalize('NFKC')
    const han = s.isWordLike && HAN_ONLY.test(word) && norm === word && !CJK_STOP_WORDS.has(word) && !CJK_STOP.has(word)
    if (han && s.index === stretch.end) stretch.end += word.length
    else {
      pairs(s.index + word.length)
      if (han) stretch = { start: s.index, end: s.index + word.length }
    }
    if (!s.isWordLike) continue
    if (!isCjk(word)) {
      const term = termOf(word)
      if (term) out.push({ term, start: s.index, end: s.index + word.length, kind: 'word' })
      continue
    }
    if (norm.length > MAX_TERM || CJK_STOP_WORDS.has(norm) || CJK_STOP.has(norm)) continue
    out.push({ term: norm, start: s.index, end: s.index + word.length, kind: 'word' })
    if (norm.length < 2 || norm !== word) continue
    for (let i = 0; i < word.length; i++) {
      const c = word[i]
      if (isHan(c) && !CJK_STOP.has(c)) out.push({ term: c, start: s.index + i, end: s.index + i + 1, kind: 'char' })
    }
  }
  pairs(text.length)
  return out
}

/** how much a query term counts, by kind: a whole word, a pair or a single character of a longer word */
const KIND_WEIGHT = { word: 1, pair: 0.5, char: 0.25 }

/** A query's terms, each once, with its weight. */
export function queryTerms(query: string): QueryTerm[] {
  const weights = new Map<string, number>()
  for (const t of analyze(query)) weights.set(t.term, Math.max(weights.get(t.term) ?? 0, KIND_WEIGHT[t.kind]))
  return [...weights].map(([term, weight]) => ({ term, weight }))
}
