// kotodama.status and ctx.kotodama.list() follow the bots (SPEC §9, §12; docs/console.md): a bot
// on its way online keeps its runtimes, a bot that vanished is no longer listed. Its usage lines
// (SPEC §11, §16): requests, prompt tokens, cached share, completion tokens, cost, in both languages.
import { expect } from 'chai'
import { Universal } from 'koishi'
import { Harness, call } from '../support/harness'
import { memoryDatabase } from '../support/databases'

describe('status follows the bots', function () {
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('the runtime that just answered is listed, also when its bot reports "connecting" after the first message', async () => {
    h = await Harness.start({ trust: { owners: ['mock:bob'] } })
    h.server.script({ toolCalls: [call('send_message', { messages: ['hi bob'] })] })
    const bob = h.client('bob')
    await bob.receive('hello')
    // a sandbox bot is made by its first message and starts (CONNECT, then ONLINE) right after it
    const bot = h.app.bots[0]
    bot.status = Universal.Status.CONNECT
    bot.status = Universal.Status.ONLINE
    await h.until(() => h.sent.length === 1, 'the answer')
    await h.settled()
    const [status] = await bob.receive('kotodama.status')
    expect(status, status).to.match(/profile neko on mock:514: 1 conversation/)
    expect(status, status).to.match(/private:bob: \d+ entries, idle/)
  })

  it('a bot that vanished without an event (a closed sandbox page) is no longer listed; its history is there when it is back', async () => {
    h = await Harness.start({ bots: ['515'], trust: { owners: ['mock:carol'] } })
    h.server.script({ toolCalls: [call('send_message', { messages: ['noted'] })] }, { toolCalls: [call('send_message', { messages: ['noted too'] })] })
    await h.client('bob').receive('remember the number 7')
    await h.client('carol', undefined, '515').receive('hello from 515')
    await h.until(() => h.sent.length === 2, 'both answers')
    await h.settled()
    expect((await h.app.kotodama.list()).map(r => r.bot).sort()).to.deep.equal(['mock:514', 'mock:515'])

    // what the sandbox does when its page closes: the bot leaves ctx.bots, no event is emitted
    const bot = h.app.bots['mock:514']
    delete h.app.bots['mock:514']
    const [status] = await h.client('carol', undefined, '515').receive('kotodama.status')
    expect(status, status).to.match(/profile neko on mock:515/)
    expect(status, status).to.not.include('mock:514')

    h.app.bots.push(bot)
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('what was the number?')
    await h.server.waitForRequests(3)
    expect(JSON.stringify(h.server.requests[2].body.messages)).to.include('remember the number 7')
  })

  it('shows per model the requests, prompt tokens, cached share, completion tokens and cost, since start and today, in en-US and zh-CN', async () => {
    h = await Harness.start({ database: memoryDatabase(), model: { price: { input: 2, cachedInput: 0.5, output: 8 } } })
    await h.app.mock.initUser('admin', 3)
    h.server.script(
      { toolCalls: [call('finish', {})], usage: { prompt_tokens: 1000, completion_tokens: 50 } },
      { toolCalls: [call('finish', {})], usage: { prompt_tokens: 1200, cached_tokens: 1000, completion_tokens: 10 } },
    )
    await h.client('bob').receive('hello')
    await h.server.waitForRequests(1)
    await h.settled()
    await h.client('bob').receive('hello again')
    await h.server.waitForRequests(2)
    await h.settled()
    // (1000 × 2 + 50 × 8) / 1e6 + (200 × 2 + 1000 × 0.5 + 10 × 8) / 1e6 = 0.0024 + 0.00098
    const [en] = await h.client('admin').receive('kotodama.status')
    expect(en, en).to.include([
      '  model main:',
      '    since start: 2 requests, 2200 prompt tokens (45% cached), 60 completion tokens, 0 errors, cost 0.0034',
      '    today: 2 requests, 2200 prompt tokens (45% cached), 60 completion tokens, 0 errors, cost 0.0034',
    ].join('\n'))
    const { id } = await h.app.database.getUser('mock', 'admin')
    await h.app.database.set('user', { id }, { locales: ['zh-CN'] } as any)
    const [zh] = await h.client('admin').receive('kotodama.status')
    expect(zh, zh).to.include([
      '  模型 main：',
      '    启动以来：2 次请求，输入 2200 token（缓存命中 45%），输出 60 token，0 次错误，费用 0.0034',
      '    今天：2 次请求，输入 2200 token（缓存命中 45%），输出 60 token，0 次错误，费用 0.0034',
    ].join('\n'))
  })
})
