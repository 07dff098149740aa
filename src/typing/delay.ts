// Human-like typing delay (SPEC §4.7).
import type { TypingConfig } from '../config/types'

// CJK ideographs, kana, hangul and full-width punctuation count at charPerSecond; the rest 1.5x faster.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u

export function countChars(text: string): { cjk: number; latin: number } {
  let cjk = 0
  let latin = 0
  for (const ch of text) {
    if (CJK.test(ch)) cjk++
    else latin++
  }
  return { cjk, latin }
}

export function typingDelay(text: string, cfg: TypingConfig, random: () => number = Math.random): number {
  const { cjk, latin } = countChars(text)
  if (cjk + latin === 0 || cfg.charPerSecond <= 0) return cfg.minDelay
  const typed = 1000 * (cjk / cfg.charPerSecond + latin / (1.5 * cfg.charPerSecond))
  const f = 1 - cfg.jitter + 2 * cfg.jitter * random()
  return Math.min(cfg.maxDelay, Math.max(cfg.minDelay, cfg.baseDelay + typed * f))
}
