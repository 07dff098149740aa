// How a voice message reads (SPEC §20), both ways: src/history/voice-line.ts writes the lines the
// model reads, and reads them back for the console page (`voicesIn`). Every line voiceLine writes
// reads back as what was heard, alone or among other text.
import { expect } from 'chai'
import fc from 'fast-check'
import h from '@satorijs/element'
import { voiceLine, voicesIn, withVoiceHeard } from '../../src/history/voice-line'

const A = 'asset://7f3a-voice'
const B = 'asset://b2'

describe('voice lines read back (voicesIn)', () => {
  it('the three forms: waiting, transcribed, not transcribed', () => {
    expect(voicesIn(`[voice: ${A}]`)).to.deep.equal([{ url: A, line: `[voice: ${A}]` }])
    expect(voicesIn(`[voice 4 s: ${A}] "今晚一起打游戏吗"`)).to.deep.equal([{ url: A, seconds: 4, text: '今晚一起打游戏吗', line: `[voice 4 s: ${A}] "今晚一起打游戏吗"` }])
    const failed = `[voice 12 s: ${A}; not transcribed: the speech server failed: HTTP 400: [Invalid file format]]`
    expect(voicesIn(failed)).to.deep.equal([{ url: A, seconds: 12, why: 'the speech server failed: HTTP 400: [Invalid file format]', line: failed }])
  })

  it('words holding quotes and brackets, two voices on a line, text around them', () => {
    const text = `hi\n[voice 2 s: ${A}] "he said "no" [twice]" [voice: ${B}] and more\nbye`
    expect(voicesIn(text)).to.deep.equal([
      { url: A, seconds: 2, text: 'he said "no" [twice]', line: `[voice 2 s: ${A}] "he said "no" [twice]"` },
      { url: B, line: `[voice: ${B}]` },
    ])
    // each line is where the text holds it
    for (const v of voicesIn(text)) expect(text).to.include(v.line)
  })

  it('not voice lines: other media, a URL not an asset, a reason never closed', () => {
    expect(voicesIn('[image: asset://x] [voice: https://qq.com/a.amr] [voice: asset://y; not transcribed: cut')).to.deep.equal([])
    expect(voicesIn('no voice at all')).to.deep.equal([])
  })

  it('the line the amendments write reads back as the transcript (property)', () => {
    const words = fc.string({ maxLength: 200 }).filter(s => s.trim().length > 0)
    const why = fc.string({ minLength: 1, maxLength: 120 }).filter(s => !s.includes('\n'))
    const around = fc.string({ maxLength: 30 }).map(s => s.replace(/[\n[\]"]/g, ''))
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 3600 }), fc.oneof(words.map(text => ({ text })), why.map(why => ({ why }))), around, around,
      (seconds, heard, before, after) => {
        const line = voiceLine(A, { seconds, ...heard })
        const content = `${h.escape(before)}\n${withVoiceHeard(`[voice: ${A}]`, A, { seconds, ...heard })}\n${h.escape(after)}`
        // the content is element markup: the page reads its text, unescaped
        const text = h.parse(content).map(el => el.attrs.content ?? '').join('')
        const [v, ...rest] = voicesIn(text)
        expect(rest).to.deep.equal([])
        expect(v.line).to.equal(line)
        expect(v.seconds).to.equal(seconds)
        if ('text' in heard) expect(v.text).to.equal(heard.text.replace(/\s+/g, ' ').trim())
        else expect(v.why).to.equal(heard.why)
      },
    ), { numRuns: 300 })
  })
})
