// The acts of SPEC §23 on Satori platforms, through Koishi + plugin-mock: the mock bot stands for a
// Discord, Telegram or KOOK bot (its platform renamed before kotodama starts, its messages sent under that
// name), whose adapter's createReaction(channelId, messageId, emoji) and deleteMessage(channelId, messageId)
// are recorded. A bot whose adapter lacks them (plugin-mock's own has neither) drops the act as not_supported.
import { expect } from 'chai'
import type { App } from 'koishi'
import { Harness, call } from '../support/harness'
import { toolResultsOf } from '../support/fake-openai'
import type { Entry } from '../../src/history/entries'

const ROOM = 'room1'

describe('acts on Satori platforms (plugin-mock, SPEC §23)', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  let reactions: unknown[][]
  let deletions: unknown[][]
  /** the mock bot as a `platform` bot; `methods`: its adapter has createReaction and deleteMessage */
  const start = (platform: string, methods: boolean) => Harness.start({
    before(app: App) {
      reactions = []
      deletions = []
      for (const bot of app.bots as any[]) {
        bot.platform = platform
        if (!methods) continue
        bot.createReaction = async (...args: unknown[]) => { reactions.push(args) }
        bot.deleteMessage = async (...args: unknown[]) => { deletions.push(args) }
      }
    },
  })
  const client = (platform: string) => {
    const c = h.client('alice', ROOM) as any
    c.event.platform = platform
    return c
  }
  /** Alice's message (waking nothing), and its id as the conversation stored it */
  const said = async (platform: string) => {
    await client(platform).receive('I passed my exam')
    await h.settled()
    const rt = (await h.app.kotodama.list())[0]
    const facts = (await rt.conversation(`group:${ROOM}`)).entries.filter((e): e is Extract<Entry, { type: 'fact' }> => e.type === 'fact')
    return facts[facts.length - 1].fact.id
  }
  /** a turn woken by a mention that sends `messages` in one call; its send_message result */
  const turn = async (platform: string, first: number, messages: string[]) => {
    h.server.script({ toolCalls: [call('send_message', { messages, continue: true })] }, { toolCalls: [call('finish', {})] })
    await client(platform).receive('<at id="514"/> hey')
    await h.server.waitForRequests(first + 2)
    await h.settled()
    return JSON.parse(toolResultsOf(h.server.requests[first + 1]).slice(-1)[0].content)
  }

  for (const platform of ['discord', 'telegram', 'kook']) {
    it(`${platform}: a reaction reaches createReaction and an unsend of its own message deleteMessage, with the channel and ids`, async () => {
      h = await start(platform, true)
      const id = await said(platform)
      const first = await turn(platform, 0, [`congrats <react emoji="🎉" to="${id}"/><react emoji="赞" to="${id}"/>`])
      expect(reactions).to.deep.equal([[ROOM, id, '🎉']])
      // a QQ face is QQ's alone: the adapter is not asked
      expect(first.dropped.map((d: any) => d.code)).to.deep.equal(['not_supported'])
      const [mine] = first.ids
      expect(h.sent.map(s => s.content.trim())).to.deep.equal(['congrats'])
      const second = await turn(platform, 2, [`<unsend id="${mine}"/>`])
      expect(second).to.deep.equal({ ok: true, ids: [null] })
      expect(deletions).to.deep.equal([[ROOM, mine]])
    })
  }

  it('a bot whose adapter has no createReaction nor deleteMessage: both dropped as not_supported, the text still sent', async () => {
    h = await start('kook', false)
    const id = await said('kook')
    const first = await turn('kook', 0, [`nice <react emoji="🎉" to="${id}"/>`])
    expect(h.sent.map(s => s.content.trim())).to.deep.equal(['nice'])
    expect(first.dropped.map((d: any) => [d.code, d.message])).to.deep.equal([['not_supported', 'this platform cannot react to messages (kook: its adapter has no createReaction)']])
    const second = await turn('kook', 2, [`ok <unsend id="${first.ids[0]}"/>`])
    expect(second.dropped.map((d: any) => d.code)).to.deep.equal(['not_supported'])
    expect(h.sent.map(s => s.content.trim())).to.deep.equal(['nice', 'ok'])
  })
})
