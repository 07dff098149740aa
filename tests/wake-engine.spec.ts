import { expect } from 'chai'
import { standardWakeEngine } from '../src/attention/standard-wake'
import type { Fact } from '../src/history/entries'

describe('standard wake engine', () => {
  const base: Fact = { id: '1', at: 0, bot: 'mock:514', channel: 'group:1', direct: false, user: { id: 'u', name: 'U' }, content: 'hello' }
  const engine = (config = {}) => standardWakeEngine({
    bot: 'mock:514', config: { engine: 'standard', direct: true, mention: true, quote: true, keywords: ['neko'], ...config },
    sentByBot: id => id === 'mine',
  })
  it('wakes on direct messages, mentions, quotes of its messages and keywords in visible text', () => {
    expect(engine().judge({ ...base, direct: true })).to.equal('direct')
    expect(engine().judge({ ...base, mentionsBot: true })).to.equal('mention')
    expect(engine().judge({ ...base, quote: { id: 'mine' } })).to.equal('quote')
    expect(engine().judge({ ...base, quote: { id: 'other' } })).to.equal(undefined)
    expect(engine().judge({ ...base, content: 'hi neko!' })).to.equal('keyword:neko')
    expect(engine().judge({ ...base, content: '<img src="asset://neko"/>' })).to.equal(undefined)
    expect(engine().judge(base)).to.equal(undefined)
  })
  it('each switch turns its rule off', () => {
    expect(engine({ direct: false }).judge({ ...base, direct: true })).to.equal(undefined)
    expect(engine({ mention: false }).judge({ ...base, mentionsBot: true })).to.equal(undefined)
    expect(engine({ quote: false }).judge({ ...base, quote: { id: 'mine' } })).to.equal(undefined)
  })
})
