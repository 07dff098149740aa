import { expect } from 'chai'
import { sendMessageTool } from '../../src/tools/send-message'
import type { ResolvedMedia, SendTarget, ToolHost } from '../../src/tools/types'
import type { ToolCallContext, TurnState } from '../../src/contract/tool'
import { typingDelay } from '../../src/typing/delay'
import { tinyPng } from '../support/tiny-png'

// send_message against a hand-written host: no Koishi, no model. The host records what a user
// would notice (typing, pauses, messages in the chat) in one ordered log, on a fake clock.

const typing = { baseDelay: 500, charPerSecond: 5, minDelay: 800, maxDelay: 4000, jitter: 0.25 }
const pause = (text: string) => typingDelay(text, typing, () => 0.5)

const OWN: SendTarget = { bot: 'mock:1', channel: 'group:1' }
const PNG = tinyPng(0, 1, 1)

interface FakeOptions {
  mode?: 'channel' | 'cross'
  online?: boolean
  /** deliver throws on the n-th delivery (0-based) */
  failOn?: number
  /** media by URL; anything else is missing */
  media?: Record<string, ResolvedMedia | (() => Promise<ResolvedMedia>)>
  /** cross mode: the channels the claims allow */
  claimed?: string[]
  start?: number
}

function fakeHost(options: FakeOptions = {}) {
  let clock = options.start ?? 0
  let attempts = 0
  const log: string[] = []
  const delivered: { target: SendTarget; content: string }[] = []
  const sleeps: number[] = []
  const resolved: { url: string; signal?: AbortSignal }[] = []
  let tail: Promise<unknown> = Promise.resolve()
  const host: ToolHost = {
    mode: options.mode ?? 'channel',
    bot: OWN.bot,
    typing,
    random: () => 0.5,
    ownTarget: () => options.mode === 'cross' ? undefined : OWN,
    resolveTarget: ({ channel, bot }) => {
      const target = { bot: bot ?? OWN.bot, channel }
      if (target.bot !== OWN.bot || !(options.claimed ?? [OWN.channel]).includes(channel)) return { error: `${target.bot} ${channel} is not claimed` }
      return target
    },
    isOnline: bot => (options.online ?? true) && bot === OWN.bot,
    deliver: async (target, content) => {
      if (attempts++ === options.failOn) {
        log.push(`fail ${content}`)
        throw new Error('network down')
      }
      delivered.push({ target, content })
      log.push(`send ${content}`)
      return [`m${delivered.length - 1}`]
    },
    showTyping: target => { log.push(`typing ${target.channel}`) },
    serialize: task => {
      const result = tail.then(task)
      tail = result.then(() => {}, () => {})
      return result
    },
    resolveMedia: async (url, signal) => {
      resolved.push({ url, signal })
      const found = options.media?.[url]
      if (!found) throw Object.assign(new Error(`${url} not found`), { code: 'not_found' })
      return typeof found === 'function' ? found() : found
    },
    sleep: async ms => {
      sleeps.push(ms)
      log.push(`sleep ${ms}`)
      clock += ms
    },
    now: () => clock,
  }
  return { host, log, delivered, sleeps, resolved }
}

function callContext(turn: Partial<TurnState> = {}): ToolCallContext {
  return { callId: 'call-1', fromProgram: false, signal: new AbortController().signal, turn: { number: 1, wokeAt: 0, ...turn } }
}

describe('send_message against a fake host', () => {
  it('sends the messages in order, each after a typing pause; the first pause is shortened by the thinking time since the wake-up', async () => {
    const fake = fakeHost({ start: 1000 })
    const ctx = callContext({ wokeAt: 700 })
    const result = await sendMessageTool(fake.host).execute({ messages: ['你好', 'how are you today?', 'bye'] }, ctx)
    expect(result).to.deep.equal({ ok: true, ids: ['m0', 'm1', 'm2'] })
    expect(fake.sleeps).to.deep.equal([pause('你好') - 300, pause('how are you today?'), pause('bye')])
    expect(fake.log).to.deep.equal([
      'typing group:1', `sleep ${pause('你好') - 300}`, 'send 你好',
      'typing group:1', `sleep ${pause('how are you today?')}`, 'send how are you today?',
      'typing group:1', `sleep ${pause('bye')}`, 'send bye',
    ])
    expect(fake.delivered.every(d => d.target === OWN)).to.equal(true)
    // the clock stood still except for the pauses; the last message went out at the end
    expect(ctx.turn.lastSpokeAt).to.equal(1000 + fake.sleeps.reduce((a, b) => a + b, 0))
  })

  it('counts typing credit from the last message sent in the turn, and skips the pause once the credit covers it', async () => {
    const fake = fakeHost({ start: 10_000 })
    const ctx = callContext({ wokeAt: 0, lastSpokeAt: 9_500 })
    await sendMessageTool(fake.host).execute({ messages: ['ok then'] }, ctx)
    expect(fake.sleeps).to.deep.equal([pause('ok then') - 500])
    expect(ctx.turn.lastSpokeAt).to.equal(10_000 + pause('ok then') - 500)

    const late = fakeHost({ start: 60_000 })
    const result = await sendMessageTool(late.host).execute({ messages: ['finally', 'and more'] }, callContext({ wokeAt: 0 }))
    expect(result).to.deep.equal({ ok: true, ids: ['m0', 'm1'] })
    // a minute of thinking covers the first pause entirely: no typing shown, no sleep; the second still pauses
    expect(late.log).to.deep.equal(['send finally', 'typing group:1', `sleep ${pause('and more')}`, 'send and more'])
  })

  it('a failed delivery reports SendFailed with what went out before it and sends nothing after it', async () => {
    const fake = fakeHost({ failOn: 1 })
    const result = await sendMessageTool(fake.host).execute({ messages: ['one', 'two', 'three'] }, callContext())
    expect(result).to.deep.equal({ ok: false, error: { name: 'SendFailed', message: 'network down' }, sent: ['m0'], failedAt: 1 })
    expect(fake.delivered.map(d => d.content)).to.deep.equal(['one'])
    expect(fake.log.filter(l => !l.startsWith('typing') && !l.startsWith('sleep'))).to.deep.equal(['send one', 'fail two'])
  })

  it('an empty message is InvalidMessage and nothing is sent, not even the messages before it', async () => {
    const fake = fakeHost()
    const result = await sendMessageTool(fake.host).execute({ messages: ['hello', '  \n '] }, callContext())
    expect(result).to.deep.include({ ok: false, sent: [], failedAt: 1 })
    expect((result as any).error.name).to.equal('InvalidMessage')
    expect(fake.log).to.deep.equal([])
  })

  it('in cross mode a target is required and must be claimed', async () => {
    const fake = fakeHost({ mode: 'cross', claimed: ['group:1', 'group:2'] })
    const tool = sendMessageTool(fake.host)
    const missing = await tool.execute({ messages: ['hi'] }, callContext())
    expect(missing).to.deep.include({ ok: false, sent: [], failedAt: 0 })
    expect((missing as any).error.name).to.equal('TargetRequired')
    const outside = await tool.execute({ messages: ['hi'], target: { channel: 'group:3' } }, callContext())
    expect((outside as any).error).to.deep.equal({ name: 'InvalidTarget', message: 'mock:1 group:3 is not claimed' })
    expect(fake.delivered).to.deep.equal([])

    const ok = await tool.execute({ messages: ['hi'], target: { channel: 'group:2' } }, callContext())
    expect(ok).to.deep.equal({ ok: true, ids: ['m0'] })
    expect(fake.delivered).to.deep.equal([{ target: { bot: 'mock:1', channel: 'group:2' }, content: 'hi' }])
  })

  it('in channel mode a target other than its own channel is InvalidTarget', async () => {
    const fake = fakeHost({ claimed: ['group:1', 'group:2'] })
    const tool = sendMessageTool(fake.host)
    const other = await tool.execute({ messages: ['hi'], target: { channel: 'group:2' } }, callContext())
    expect((other as any).error.name).to.equal('InvalidTarget')
    expect(fake.delivered).to.deep.equal([])
    const own = await tool.execute({ messages: ['hi'], target: { channel: 'group:1' } }, callContext())
    expect(own).to.deep.equal({ ok: true, ids: ['m0'] })
  })

  it('an offline bot is BotUnavailable and nothing is sent', async () => {
    const fake = fakeHost({ online: false })
    const result = await sendMessageTool(fake.host).execute({ messages: ['hi'] }, callContext())
    expect(result).to.deep.include({ ok: false, sent: [], failedAt: 0 })
    expect((result as any).error.name).to.equal('BotUnavailable')
    expect(fake.log).to.deep.equal([])
  })

  it('resolves resource media into data: URLs, drops the ones that fail and still sends the rest', async () => {
    const fake = fakeHost({
      media: {
        'local://cat.png': { data: PNG, mediaType: 'image/png' },
        'artifact://a1/report.pdf': { data: Buffer.from('%PDF'), mediaType: 'application/pdf', filename: 'report.pdf' },
        'https://example.com/x.png': { data: PNG, mediaType: 'image/png' },
      },
    })
    const ctx = callContext()
    const result = await sendMessageTool(fake.host).execute({
      messages: [
        'look <img src="local://cat.png"/>',
        'and <img src="local://missing.png"/>',
        '<file src="artifact://a1/report.pdf"/>',
        '<img src="https://example.com/x.png"/>',
      ],
    }, ctx)
    expect(result).to.deep.equal({
      ok: true, ids: ['m0', 'm1', 'm2', 'm3'],
      dropped: [{ src: 'local://missing.png', code: 'not_found', message: 'local://missing.png not found' }],
    })
    expect(fake.delivered.map(d => d.content)).to.deep.equal([
      `look <img src="data:image/png;base64,${PNG.toString('base64')}"/>`,
      'and ',
      `<file src="data:application/pdf;base64,${Buffer.from('%PDF').toString('base64')}" title="report.pdf"/>`,
      `<img src="data:image/png;base64,${PNG.toString('base64')}"/>`,
    ])
    // http(s) media is read through the host too (its web scheme, SPEC §4.1): the platform gets data
    expect(fake.resolved.map(r => r.url)).to.deep.equal(['local://cat.png', 'local://missing.png', 'artifact://a1/report.pdf', 'https://example.com/x.png'])
    expect(fake.resolved.every(r => r.signal === ctx.signal)).to.equal(true)
  })

  it('a message left empty by a dropped medium is InvalidMessage and reports the drop', async () => {
    const fake = fakeHost()
    const result = await sendMessageTool(fake.host).execute({ messages: ['hi', '<img src="local://gone.png"/>'] }, callContext())
    expect(result).to.deep.include({ ok: false, sent: [], failedAt: 1 })
    expect((result as any).error.name).to.equal('InvalidMessage')
    expect((result as any).dropped).to.deep.equal([{ src: 'local://gone.png', code: 'not_found', message: 'local://gone.png not found' }])
    expect(fake.delivered).to.deep.equal([])
  })

  it('two calls go through serialize and never interleave, even when the first waits for its media', async () => {
    let release!: () => void
    const slow = new Promise<void>(resolve => { release = resolve })
    const fake = fakeHost({
      media: { 'local://slow.png': async () => { await slow; return { data: PNG, mediaType: 'image/png' } } },
    })
    const tool = sendMessageTool(fake.host)
    const first = tool.execute({ messages: ['<img src="local://slow.png"/>', 'first done'] }, callContext())
    const second = tool.execute({ messages: ['second'] }, callContext())
    await new Promise(resolve => setTimeout(resolve, 20))
    expect(fake.delivered).to.deep.equal([])
    release()
    expect(await first).to.deep.equal({ ok: true, ids: ['m0', 'm1'] })
    expect(await second).to.deep.equal({ ok: true, ids: ['m2'] })
    expect(fake.delivered.map(d => d.content)).to.deep.equal([
      `<img src="data:image/png;base64,${PNG.toString('base64')}"/>`, 'first done', 'second',
    ])
  })

  it('mode text sends markup literally, escaped, and types it as written', async () => {
    const fake = fakeHost()
    const raw = '<b>hi</b> & <at id="1"/>'
    const result = await sendMessageTool(fake.host).execute({ messages: [raw], mode: 'text' }, callContext())
    expect(result).to.deep.equal({ ok: true, ids: ['m0'] })
    expect(fake.delivered.map(d => d.content)).to.deep.equal(['&lt;b&gt;hi&lt;/b&gt; &amp; &lt;at id="1"/&gt;'])
    expect(fake.sleeps).to.deep.equal([pause(raw)])
    expect(fake.resolved).to.deep.equal([])

    // the same markup in element mode is sent as elements, and only its text is typed
    const element = fakeHost()
    const markup = '<b>hi</b> <at id="1"/>'
    await sendMessageTool(element.host).execute({ messages: [markup] }, callContext())
    expect(element.delivered.map(d => d.content)).to.deep.equal([markup])
    expect(element.sleeps).to.deep.equal([pause('hi ')])
  })
})
