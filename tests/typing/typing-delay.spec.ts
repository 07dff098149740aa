import { expect } from 'chai'
import { typingDelay, countChars } from '../../src/typing/delay'

const typing = { baseDelay: 500, charPerSecond: 5, minDelay: 800, maxDelay: 4000, jitter: 0.25 }

describe('typing delay (SPEC §4.7)', () => {
  it('counts CJK, kana, hangul and full-width punctuation apart from the rest', () => {
    expect(countChars('你好，世界！')).to.deep.equal({ cjk: 6, latin: 0 })
    expect(countChars('かなカナ한글')).to.deep.equal({ cjk: 6, latin: 0 })
    expect(countChars('hi 👋')).to.deep.equal({ cjk: 0, latin: 4 })
  })
  it('follows the formula with the injected random source', () => {
    // 5 CJK at 5/s = 1000 ms, 3 latin at 7.5/s = 400 ms; f = 1 - 0.25 + 0.5 * 0.5 = 1
    expect(typingDelay('你好世界呀abc', typing, () => 0.5)).to.equal(500 + 1400)
    expect(typingDelay('你好世界呀abc', typing, () => 0)).to.equal(500 + 1400 * 0.75)
    expect(typingDelay('你好世界呀abc', typing, () => 1)).to.equal(500 + 1400 * 1.25)
  })
  it('clamps, and gives minDelay for empty text or a non-positive speed', () => {
    expect(typingDelay('a', typing, () => 0.5)).to.equal(800)
    expect(typingDelay('字'.repeat(100), typing, () => 0.5)).to.equal(4000)
    expect(typingDelay('', typing, () => 0.5)).to.equal(800)
    expect(typingDelay('hello', { ...typing, charPerSecond: 0 }, () => 0.5)).to.equal(800)
  })
})
