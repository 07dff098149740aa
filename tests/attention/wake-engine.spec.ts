import { expect } from 'chai'
import { standardWakeEngine } from '../../src/attention/standard-wake'
import type { Fact } from '../../src/history/entries'
import { Arrivals } from '../../src/attention/arrival'

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
  // SPEC §19: a poke of the bot wakes it like a mention; other notices never wake, not even in a private chat
  it('a poke of the bot wakes it (wake.poke), a poke of someone else or a member joining never does', () => {
    const poke: Fact = { ...base, content: 'poked you', notice: 'poke', pokesBot: true }
    expect(engine().judge(poke)).to.equal('poke')
    expect(engine({ poke: false }).judge(poke)).to.equal(undefined)
    expect(engine({ poke: false }).judge({ ...poke, direct: true, channel: 'private:u' })).to.equal(undefined)
    expect(engine().judge({ ...poke, pokesBot: false, content: 'poked Bob (2)' })).to.equal(undefined)
    expect(engine().judge({ ...base, notice: 'join', content: 'neko joined the group' })).to.equal(undefined)
  })
})

describe('arrivals: pokes', () => {
  const profile = (perUser = { count: 0, seconds: 60 }) =>
    ({ wake: { staleAfterSeconds: 600 }, timing: { perUser, yield: 'addressed' } }) as any
  const poke = (user: string, at: number): Fact =>
    ({ id: `p${at}`, at, bot: 'mock:514', channel: 'group:1', direct: false, user: { id: user, name: user }, content: 'poked you', notice: 'poke', pokesBot: true })
  it('with perUser off, one person\'s pokes wake at most twice a minute; another person\'s still wake', () => {
    const a = new Arrivals(profile())
    const held = [0, 1000, 2000, 3000].map(t => a.held(poke('u', t), 'poke', t))
    expect(held).to.deep.equal([undefined, undefined, 'perUser', 'perUser'])
    expect(a.held(poke('v', 4000), 'poke', 4000)).to.equal(undefined)
    expect(a.held(poke('u', 61_000), 'poke', 61_000)).to.equal(undefined)
  })
  it('with perUser on, pokes count against it like any wake', () => {
    const a = new Arrivals(profile({ count: 1, seconds: 60 }))
    expect(a.held({ ...poke('u', 0), notice: undefined, pokesBot: undefined, content: '@bot hi' }, 'mention', 0)).to.equal(undefined)
    expect(a.held(poke('u', 1000), 'poke', 1000)).to.equal('perUser')
  })
  it('a muted channel holds every wake, and counts none', () => {
    let muted = true
    const a = new Arrivals(profile({ count: 1, seconds: 60 }), () => muted)
    expect(a.held(poke('u', 0), 'poke', 0)).to.equal('muted')
    muted = false
    expect(a.held(poke('u', 1000), 'poke', 1000)).to.equal(undefined)
  })
})
