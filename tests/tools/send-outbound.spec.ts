// Elements a part contributes to send_message (src/tools/outbound.ts): a new part's tag — here a
// `<react>` as SPEC §23's acts part will add it — is kept by the allow-list with its own attributes,
// made ready by its part, held to its per-turn cap, and reported with the part's code while the part
// is off; send_message itself names no part.
import { expect } from 'chai'
import h from '@satorijs/element'
import { sendMessageTool } from '../../src/tools/send-message'
import { outboundElements, type OutboundServer, type OutboundTag } from '../../src/tools/outbound'
import type { SendTarget, ToolHost } from '../../src/tools/types'
import type { ToolCallContext, TurnState } from '../../src/contract/tool'

const OWN: SendTarget = { bot: 'mock:1', channel: 'group:1' }
const REACT: OutboundTag = { tag: 'react', attrs: ['emoji', 'to'], off: { code: 'acts_off', message: 'acts are off for this bot' } }

function reactServer(reacted: string[]): OutboundServer {
  return {
    tag: 'react',
    lines: '- <react emoji="👍" to="123"/> reacts to a message.',
    perTurn: { cap: 2, over: { code: 'act_limit', message: 'at most 2 acts a turn' } },
    refuse: el => el.attrs.to ? undefined : { code: 'unknown_message', message: '<react> needs to="<message id>"' },
    async resolve(el) {
      return { elements: [h.text(`(${el.attrs.emoji})`)], sent: () => { reacted.push(`${el.attrs.emoji}>${el.attrs.to}`) } }
    },
  }
}

function host(elements = outboundElements([REACT], [])) {
  const delivered: string[] = []
  const tool: ToolHost = {
    mode: 'channel', bot: OWN.bot, typing: { baseDelay: 0, charPerSecond: 1000, minDelay: 0, maxDelay: 0, jitter: 0 },
    random: () => 0.5, ownTarget: () => OWN, resolveTarget: () => OWN, isOnline: () => true, elements,
    deliver: async (_t, content) => { delivered.push(content); return [`m${delivered.length - 1}`] },
    showTyping: () => {}, serialize: task => task(),
    resolveMedia: async url => { throw new Error(`${url} not found`) },
    sleep: async () => {}, now: () => 5000,
  }
  return { tool, delivered }
}

const ctx = (turn: TurnState): ToolCallContext => ({ callId: 'c', fromProgram: false, signal: new AbortController().signal, turn })

describe('send_message: elements parts contribute', () => {
  it('a served tag keeps its attributes, is made ready, counted for the turn and told once delivered; its line is in the description', async () => {
    const reacted: string[] = []
    const fake = host(outboundElements([REACT], [reactServer(reacted)]))
    const turn: TurnState = { number: 1, wokeAt: 0 }
    const tool = sendMessageTool(fake.tool)
    expect(tool.description).to.include('<react emoji="👍" to="123"/> reacts to a message.')
    const result = await tool.execute({ messages: ['ok <react emoji="👍" to="7" onebot:x="1"/>', '<react emoji="🎉" to="8"/><react emoji="❤" to="9"/>'] }, ctx(turn))
    expect(fake.delivered).to.deep.equal(['ok (👍)', '(🎉)'])
    expect((result as any).dropped.map((d: any) => [d.src, d.code])).to.deep.equal([['<react emoji="❤" to="9"/>', 'act_limit']])
    expect(reacted).to.deep.equal(['👍>7', '🎉>8'])
    expect(turn.elementsSent).to.deep.equal({ react: 2 })
  })

  it('refused before the cap; with its part off, reported with the part\'s own code; unknown to the runtime, an unsupported element', async () => {
    const reacted: string[] = []
    const on = await sendMessageTool(host(outboundElements([REACT], [reactServer(reacted)])).tool)
      .execute({ messages: ['a<react emoji="👍"/>'] }, ctx({ number: 1, wokeAt: 0 }))
    expect((on as any).dropped.map((d: any) => d.code)).to.deep.equal(['unknown_message'])
    const off = host()
    const offResult = await sendMessageTool(off.tool).execute({ messages: ['b<react emoji="👍" to="7"/>'] }, ctx({ number: 1, wokeAt: 0 }))
    expect((offResult as any).dropped.map((d: any) => d.code)).to.deep.equal(['acts_off'])
    expect(sendMessageTool(off.tool).description).to.not.include('<react')
    const none = host(outboundElements([], []))
    const noneResult = await sendMessageTool(none.tool).execute({ messages: ['c<react emoji="👍" to="7"/>'] }, ctx({ number: 1, wokeAt: 0 }))
    expect((noneResult as any).dropped.map((d: any) => d.code)).to.deep.equal(['unsupported_element'])
    expect([...off.delivered, ...none.delivered]).to.deep.equal(['b', 'c'])
  })
})
