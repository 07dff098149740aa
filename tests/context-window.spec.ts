import { expect } from 'chai'
import { windowEntries, toModelMessages } from '../src/runtime/request/build-messages'
import type { Entry } from '../src/runtime/types'

const fact = (n: number, channel = 'group:1', content = `message ${n}`): Entry => ({
  type: 'fact', at: 0, fact: { id: String(n), at: 0, bot: 'x:1', channel, direct: false, user: { id: 'u', name: 'U' }, content },
})
const step = (id: string): Entry => ({
  type: 'step', at: 0, turn: 1, messages: [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'finish', input: {} }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'finish', output: { type: 'json', value: { ok: true } } }] },
  ],
})

describe('context window', () => {
  it('keeps the newest entries within maxMessages and never splits a call from its result', () => {
    const entries = [fact(1), step('a'), fact(2), step('b'), fact(3)]
    expect(windowEntries(entries, { maxMessages: 4, maxChars: 1e6 })).to.deep.equal(entries.slice(2))
    // step b is two messages: with room for 2, only the newest fact fits beside nothing else
    expect(windowEntries(entries, { maxMessages: 2, maxChars: 1e6 })).to.deep.equal(entries.slice(4))
    const w = windowEntries(entries, { maxMessages: 3, maxChars: 1e6 })
    expect(w).to.deep.equal(entries.slice(3))
    const msgs = toModelMessages(w, false)
    expect(msgs.map(m => m.role)).to.deep.equal(['assistant', 'tool', 'user'])
  })
  it('trims by characters too, but always keeps the newest entry', () => {
    const entries = [fact(1, 'group:1', 'x'.repeat(500)), fact(2, 'group:1', 'y'.repeat(500))]
    expect(windowEntries(entries, { maxMessages: 100, maxChars: 600 })).to.have.length(1)
    expect(windowEntries(entries, { maxMessages: 100, maxChars: 10 })).to.have.length(1)
  })
  it('groups facts into one user message with channel headers in cross mode', () => {
    const msgs = toModelMessages([fact(1, 'group:1'), fact(2, 'group:1'), fact(3, 'group:2')], true)
    expect(msgs).to.have.length(1)
    const lines = (msgs[0].content as string).split('\n')
    expect(lines.filter(l => l.startsWith('[channel '))).to.deep.equal(['[channel bot="x:1" channel="group:1"]', '[channel bot="x:1" channel="group:2"]'])
  })
})
