import { expect } from 'chai'
import { uuidv7, UUIDV7 } from '../../src/util/uuidv7'
import { safeName } from '../../src/util/safe-name'
import { markupCut } from '../../src/runtime/long-facts'
import { namesBot } from '../../src/inbound/mentions'
import { isCjk, segments } from '../../src/util/words'
import { analyze } from '../../src/recall/analyze'
import { terms } from '../../src/tool-search'
import { TIMED_OUT, within } from '../../src/util/within'

describe('small utilities', () => {
  it('uuidv7 ids are valid and increase', () => {
    const ids = Array.from({ length: 100 }, () => uuidv7())
    expect(ids.every(id => UUIDV7.test(id))).to.equal(true)
    expect([...ids].sort()).to.deep.equal(ids)
  })
  it('safeName is file-system safe and distinct', () => {
    expect(safeName('group:123')).to.equal('group%3A123')
    expect(safeName('..')).to.equal('%2E%2E')
    expect(safeName('a/b')).to.not.include('/')
  })
})

describe('long messages are cut between elements', () => {
  it('never inside a tag, an entity or a surrogate pair', () => {
    const img = '<img src="asset://0190f9f3-0000-7000-8000-000000000000"/>'
    const text = 'x'.repeat(3990) + img + ' tail'
    expect(markupCut(text, 4000)).to.equal(3990)
    expect(markupCut('a'.repeat(3998) + '&amp;b', 4000)).to.equal(3998)
    expect(markupCut('a'.repeat(3999) + '😀', 4000)).to.equal(3999)
    expect(markupCut('a'.repeat(5000), 4000)).to.equal(4000)
    expect(markupCut('<b>bold</b>' + 'a'.repeat(5000), 4000)).to.equal(4000)
  })
})

describe('a name written as text is a mention (SPEC §12)', () => {
  it('@Name anywhere, or the name leading the message', () => {
    for (const t of ['@Koishi hi', 'hi @koishi', 'hi @Koishi!', 'Koishi, are you there?', 'koishi: ping', '  Koishi']) expect(namesBot(t, 'Koishi'), t).to.equal(true)
    for (const t of ['Koishiland is nice', 'hi koishi', 'email@Koishi.com', '@Koishix']) expect(namesBot(t, 'Koishi'), t).to.equal(false)
    expect(namesBot('@K.O hi', 'K.O')).to.equal(true)
    expect(namesBot('anything', undefined)).to.equal(false)
  })
})

describe('the word splitter recall and tool_search share', () => {
  const words = (text: string) => [...segments(text)].filter(s => s.isWordLike).map(s => s.segment)

  it('cuts Chinese and Japanese with a dictionary and spaced scripts, Korean among them, at spaces', () => {
    expect(words('我想查询天气预报')).to.include.members(['天气', '预报'])
    expect(words('明日の天気を教えて')).to.include('天気')
    expect(words('내일 날씨를 알려줘')).to.deep.equal(['내일', '날씨를', '알려줘'])
    expect(words("it's 3.5 km, don't")).to.deep.equal(["it's", '3.5', 'km', "don't"])
    expect([isCjk('天气'), isCjk('ひらがな'), isCjk('カタカナ'), isCjk('날씨'), isCjk('погода')]).to.deep.equal([true, true, true, false, false])
  })

  it('recall and tool_search both keep a Korean word whole, as they keep a Russian one', () => {
    expect(analyze('내일 일기예보를').map(t => [t.term, t.kind])).to.deep.equal([['내일', 'word'], ['일기예보를', 'word']])
    expect(terms('내일 일기예보를')).to.deep.equal(['내일', '일기예보를'])
    expect(terms('прогноз погоды')).to.deep.equal(['прогноз', 'погоды'])
  })
})

describe('within', () => {
  it('gives the value when it comes in time, TIMED_OUT when it does not, and passes a rejection on', async () => {
    expect(await within(Promise.resolve(7), 50)).to.equal(7)
    expect(await within(new Promise(() => {}), 10)).to.equal(TIMED_OUT)
    let error: unknown
    await within(Promise.reject(new Error('no')), 50).catch(e => { error = e })
    expect((error as Error)?.message).to.equal('no')
  })
})
