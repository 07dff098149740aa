import { expect } from 'chai'
import { uuidv7, UUIDV7 } from '../src/util/uuidv7'
import { safeName } from '../src/util/safe-name'
import { markupCut } from '../src/runtime/long-facts'
import { namesBot } from '../src/koishi/mentions'

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
