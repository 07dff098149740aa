// Reactions people add on Satori platforms (SPEC §23): a `reaction-added` session (Discord, Telegram, KOOK
// dispatch them; here through plugin-mock's bot) becomes a fact that wakes nothing and the next turn reads;
// `reaction-removed` inside the window takes it back. And the gather's bound: a storm over many messages
// keeps at most MAX_OPEN tallies open, storing the oldest early.
import { expect } from 'chai'
import { Harness, call } from '../support/harness'
import { lastUserText } from '../support/fake-openai'
import { presencePart } from '../../src/presence/part'
import { MAX_OPEN, ReactionGather } from '../../src/presence/reactions'
import type { Fact } from '../../src/history/entries'
import type { Clock } from '../../src/util/clock'

describe('acts: reactions people add (Satori, plugin-mock)', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  const react = (type: string, message: string, user: string, emoji: string) => {
    const bot = h.app.bots.find(b => b.selfId === '514') as any
    const session = bot.session({
      type, timestamp: Date.now(), channel: { id: 'room1', type: 0 }, guild: { id: 'room1' },
      user: { id: user, name: user }, message: { id: message }, emoji: { id: '', name: emoji },
    })
    bot.dispatch(session)
  }

  it('reaction-added is stored without a turn and read by the next one; reaction-removed in the window takes it back', async () => {
    h = await Harness.start()
    await h.client('alice', 'room1').receive('look at this')
    await h.settled()
    expect(h.server.requests).to.have.length(0)
    react('reaction-added', 'm42', 'bob', '❤️')
    react('reaction-added', 'm43', 'bob', '🎉')
    react('reaction-removed', 'm43', 'bob', '🎉')
    const rt = (await h.app.kotodama.list())[0]
    await h.until(() => rt.part(presencePart)!.reactions.size === 1, 'one tally open')
    await h.idle(50)
    expect(h.server.requests).to.have.length(0)
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive('<at id="514"/> did anyone like it?')
    await h.server.waitForRequests(1)
    await h.settled()
    const text = lastUserText(h.server.requests[0])
    expect(text, text).to.match(/\] bob \(bob\) reacted ❤️ to #m42($|\n)/).and.not.include('m43')
  })

  it('a reaction never fills a wait({messages}): the wait stays pending until a person writes', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('wait', { messages: 1 })] })
    await h.client('alice', 'room1').receive('<at id="514"/> tell me when someone answers')
    await h.server.waitForRequests(1)
    await h.settled()
    const rt = (await h.app.kotodama.list())[0]
    react('reaction-added', 'm1', 'bob', '👍')
    await h.until(() => rt.part(presencePart)!.reactions.size === 1, 'the reaction gathered')
    await rt.part(presencePart)!.reactions.flush((await rt.loaded())[0].key)
    await h.idle(100)
    expect(h.server.requests).to.have.length(1)
    expect((await rt.loaded())[0].wait).to.not.equal(undefined)
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('carol', 'room1').receive('I answer')
    await h.server.waitForRequests(2)
    await h.settled()
  })
})

describe('presence: the reaction gather', () => {
  /** a clock whose timers only run when told */
  const manual = () => {
    const timers: (() => void)[] = []
    const clock: Clock = {
      now: () => 0, monotonic: () => 0, queueMicrotask: fn => queueMicrotask(fn),
      setTimeout: fn => { timers.push(fn); const t = { cancel: () => { timers.splice(timers.indexOf(fn), 1) }, unref: () => t }; return t },
    }
    return { clock, fire: () => timers.splice(0).forEach(fn => fn()) }
  }
  const where = { bot: 'test:1', channel: 'group:1', direct: false }

  it(`a storm over 1000 messages keeps at most ${MAX_OPEN} tallies open, the oldest stored early; each fact's people and kinds bounded`, async () => {
    const stored: Fact[] = []
    const { clock, fire } = manual()
    const g = new ReactionGather({ clock, windowMs: 60_000, conversationOf: c => c, store: async f => stored.push(f), failed: e => { throw e } })
    for (let i = 0; i < 1000; i++) {
      g.add({ where, to: `m${i}`, user: { id: `u${i}`, name: `u${i}` }, emoji: '👍', count: 1, at: i })
      expect(g.size).to.be.at.most(MAX_OPEN)
    }
    expect(stored).to.have.length(1000 - MAX_OPEN)
    expect(stored[0].reactions!.to).to.equal('m0')
    for (let i = 0; i < 5000; i++) g.add({ where, to: 'hot', user: { id: `p${i}`, name: `p${i}` }, emoji: `e${i % 20}`, count: 1, at: i })
    fire()
    await Promise.resolve()
    expect(g.size).to.equal(0)
    const hot = stored.find(f => f.reactions!.to === 'hot')!.reactions!
    expect(hot.by).to.have.length(3)
    expect(hot.others).to.equal(4997)
    expect(hot.emoji).to.have.length(8)
    expect(hot.emoji.reduce((n, [, c]) => n + c, 0) + hot.more!).to.equal(5000)
  })
})
