// <sticker name> in send_message (SPEC §19 "What the mind sends"), against a hand-written host and a
// shelf double: the image the tool makes for the edge, the turn's cap held by code, what is dropped
// and reported, what counts as used. The wire (NapCat's sub_type/summary) is tests/koishi/onebot-stickers.spec.ts.
import { expect } from 'chai'
import h from '@satorijs/element'
import { sendMessageTool } from '../../src/tools/send-message'
import type { SendTarget, ToolHost } from '../../src/tools/types'
import type { ToolCallContext, TurnState } from '../../src/contract/tool'
import { outboundElements } from '../../src/tools/outbound'
import { STICKER_TAG, stickerServer } from '../../src/stickers/send-sticker'
import type { Sticker, StickerShelf } from '../../src/stickers/types'
import { STICKER_ATTR } from '../../src/util/elements'
import { tinyPng } from '../support/tiny-png'

const OWN: SendTarget = { bot: 'mock:1', channel: 'group:1' }
const GIF = Buffer.from('GIF89a-tiny')
const PNG = tinyPng(0x3366cc)

function sticker(name: string, o: Partial<Sticker> = {}): Sticker {
  return { name, path: `/stickers/${name}.gif`, mediaType: 'image/gif', sha256: `sha-${name}`, size: 11, state: 'approved', ...o }
}

/** The StickerShelf of src/stickers/types.ts, in memory: byName answers approved stickers only. */
function shelfDouble(stickers: Sticker[], bytes: Record<string, Buffer> = {}) {
  const uses: { name: string; at: number }[] = []
  const shelf: StickerShelf & { approved(): Sticker[] } = {
    byName: name => stickers.find(s => s.name === name && s.state === 'approved'),
    byHash: sha => stickers.find(s => s.sha256 === sha),
    bytes: async s => {
      if (!bytes[s.name]) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' })
      return bytes[s.name]
    },
    used: (s, at) => { uses.push({ name: s.name, at }) },
    approved: () => stickers.filter(s => s.state === 'approved'),
  }
  return { shelf, uses }
}

/** the elements a runtime's parts serve: <sticker> declared, and served by the library when it is on */
const stickerPort = (shelf: StickerShelf, o: { maxPerTurn: number }, c: typeof clock) => outboundElements([STICKER_TAG], [stickerServer(shelf, o.maxPerTurn, c)])

function host(elements = outboundElements([STICKER_TAG], []), o: { failOn?: number } = {}) {
  const delivered: string[] = []
  let n = 0
  let tail: Promise<unknown> = Promise.resolve()
  const h: ToolHost = {
    mode: 'channel', bot: OWN.bot, typing: { baseDelay: 0, charPerSecond: 1000, minDelay: 0, maxDelay: 0, jitter: 0 },
    random: () => 0.5, ownTarget: () => OWN, resolveTarget: () => OWN, isOnline: () => true,
    elements,
    deliver: async (_t, content) => {
      if (n++ === o.failOn) throw new Error('network down')
      delivered.push(content)
      return [`m${delivered.length - 1}`]
    },
    showTyping: () => {},
    serialize: task => {
      const r = tail.then(task)
      tail = r.then(() => {}, () => {})
      return r
    },
    resolveMedia: async url => { throw Object.assign(new Error(`${url} not found`), { code: 'not_found' }) },
    sleep: async () => {},
    now: () => 5000,
  }
  return { host: h, delivered }
}

const ctx = (turn: TurnState = { number: 1, wokeAt: 0 }): ToolCallContext => ({ callId: 'c', fromProgram: false, signal: new AbortController().signal, turn })
const dataUrl = (b: Buffer, type = 'image/gif') => `data:${type};base64,${b.toString('base64')}`
const clock = { now: () => 4242, monotonic: () => 0, setTimeout: () => ({ cancel() {}, unref() { return this } }), queueMicrotask: (f: () => void) => f() }

describe('send_message: <sticker name>', () => {
  const library = () => shelfDouble([
    sticker('happy-cat'), sticker('sad-dog', { mediaType: 'image/png', path: '/stickers/sad-dog.png' }),
    sticker('开心猫'), sticker('new-one', { state: 'waiting' }), sticker('ugly', { state: 'banned' }),
  ], { 'happy-cat': GIF, 'sad-dog': PNG, 开心猫: GIF })

  it('becomes an image of the sticker\'s bytes marked for the edge; delivered, it is used once and counts for the turn', async () => {
    const lib = library()
    const fake = host(stickerPort(lib.shelf, { maxPerTurn: 2 }, clock))
    const turn: TurnState = { number: 1, wokeAt: 0 }
    const result = await sendMessageTool(fake.host).execute({ messages: ['look <sticker name="happy-cat"/>'] }, ctx(turn))
    expect(result).to.deep.equal({ ok: true, ids: ['m0'] })
    expect(fake.delivered).to.deep.equal([`look <img src="${dataUrl(GIF)}" kotodama-sticker="happy-cat"/>`])
    const [img] = h.parse(fake.delivered[0]).filter(e => e.type === 'img')
    expect(img.attrs[STICKER_ATTR]).to.equal('happy-cat')
    expect(lib.uses).to.deep.equal([{ name: 'happy-cat', at: 4242 }])
    expect(turn.elementsSent?.sticker).to.equal(1)
  })

  it('holds the turn to maxPerTurn across calls: the second is dropped as sticker_limit, a message of only that sticker is left out', async () => {
    const lib = library()
    const tool = sendMessageTool(host(stickerPort(lib.shelf, { maxPerTurn: 1 }, clock)).host)
    const turn: TurnState = { number: 1, wokeAt: 0 }
    const first = await tool.execute({ messages: ['<sticker name="happy-cat"/>', 'and <sticker name="sad-dog"/>', '<sticker name="开心猫"/>'] }, ctx(turn))
    expect(first).to.deep.include({ ok: true, ids: ['m0', 'm1'] })
    const dropped = (first as any).dropped
    expect(dropped.map((d: any) => [d.src, d.code])).to.deep.equal([['<sticker name="sad-dog"/>', 'sticker_limit'], ['<sticker name="开心猫"/>', 'sticker_limit']])
    expect(dropped[0].message).to.equal('at most 1 sticker a turn; this one was not sent')
    expect(dropped[1].message).to.include('message 2 had nothing else, so it was not sent')
    // a later call of the same turn: the cap is spent, and nothing else is in it: it fails, so the turn goes on
    const second = await tool.execute({ messages: ['<sticker name="sad-dog"/>'] }, ctx(turn))
    expect(second).to.deep.include({ ok: false, sent: [], failedAt: 0 })
    expect((second as any).error.name).to.equal('InvalidMessage')
    expect((second as any).dropped[0].code).to.equal('sticker_limit')
    expect(lib.uses.map(u => u.name)).to.deep.equal(['happy-cat'])
    // a new turn may send again
    const next = await tool.execute({ messages: ['<sticker name="sad-dog"/>'] }, ctx({ number: 2, wokeAt: 0 }))
    expect(next).to.deep.equal({ ok: true, ids: ['m2'] })
  })

  it('an unknown, waiting or banned name is dropped as unknown_sticker with names it may send; the rest is sent', async () => {
    const lib = library()
    const fake = host(stickerPort(lib.shelf, { maxPerTurn: 3 }, clock))
    const result = await sendMessageTool(fake.host).execute({ messages: ['hi <sticker name="happy"/>', 'x<sticker name="ugly"/>', 'y<sticker name="new-one"/>'] }, ctx())
    expect(fake.delivered).to.deep.equal(['hi ', 'x', 'y'])
    const dropped = (result as any).dropped
    expect(dropped.map((d: any) => d.code)).to.deep.equal(['unknown_sticker', 'unknown_sticker', 'unknown_sticker'])
    // the name that shares a word comes first; banned and waiting ones are never named
    expect(dropped[0].message).to.equal('no sticker named "happy"; you may send: happy-cat, sad-dog, 开心猫')
    expect(dropped.map((d: any) => d.message).join(' ')).to.not.match(/ugly,|new-one,/)
    expect(lib.uses).to.deep.equal([])
  })

  it('stickers off: <sticker> is dropped as stickers_off; a sticker mark the model writes itself is removed', async () => {
    const fake = host()
    const result = await sendMessageTool(fake.host).execute({ messages: ['ok <sticker name="happy-cat"/>', '<img src="data:image/png;base64,iVBO" kotodama-sticker="x"/>'] }, ctx())
    expect((result as any).dropped.map((d: any) => d.code)).to.deep.equal(['stickers_off'])
    expect(fake.delivered).to.deep.equal(['ok ', '<img src="data:image/png;base64,iVBO"/>'])
    expect(sendMessageTool(fake.host).description).to.not.include('<sticker')
    expect(sendMessageTool(host(stickerPort(library().shelf, { maxPerTurn: 2 }, clock)).host).description).to.include('at most 2 a turn')
  })

  it('a sticker whose message failed to go out is not used and does not count', async () => {
    const lib = library()
    const fake = host(stickerPort(lib.shelf, { maxPerTurn: 1 }, clock), { failOn: 0 })
    const turn: TurnState = { number: 1, wokeAt: 0 }
    const result = await sendMessageTool(fake.host).execute({ messages: ['<sticker name="happy-cat"/>'] }, ctx(turn))
    expect(result).to.deep.include({ ok: false, failedAt: 0 })
    expect(lib.uses).to.deep.equal([])
    expect(turn.elementsSent?.sticker).to.equal(undefined)
  })

  it('a sticker whose file cannot be read is dropped as read_failed; an empty name as unknown_sticker', async () => {
    const lib = shelfDouble([sticker('gone')])
    const fake = host(stickerPort(lib.shelf, { maxPerTurn: 2 }, clock))
    const result = await sendMessageTool(fake.host).execute({ messages: ['a<sticker name="gone"/><sticker/>'] }, ctx())
    expect((result as any).dropped.map((d: any) => d.code)).to.deep.equal(['read_failed', 'unknown_sticker'])
    expect((result as any).dropped[0].message).to.equal('the sticker "gone" could not be read (ENOENT)')
    expect(fake.delivered).to.deep.equal(['a'])
  })

  it('failedAt names the message as the model numbered it when a message before it was left out', async () => {
    const fake = host(stickerPort(library().shelf, { maxPerTurn: 0 }, clock), { failOn: 0 })
    const result = await sendMessageTool(fake.host).execute({ messages: ['<sticker name="happy-cat"/>', 'two'] }, ctx())
    expect(result).to.deep.include({ ok: false, sent: [], failedAt: 1 })
  })
})
