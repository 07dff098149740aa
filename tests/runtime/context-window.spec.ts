import { expect } from 'chai'
import { toModelMessages } from '../../src/runtime/request/build-messages'
import { windowEntries as windowOf, GAP_NOTE, sizeOf } from '../../src/runtime/request/window'
import { blockWindow, type BlockWindow } from '../../src/runtime/request/block-window'
import { turnLine } from '../../src/runtime/request/turn-line'
import { shortenEntries } from '../../src/runtime/request/shorten'
import type { Entry } from '../../src/history/entries'

/** the zone the lines show their times in: the host's */
const ZONE = ''
const windowEntries = (entries: Entry[], limits: { maxMessages: number; maxChars: number }) => windowOf(entries, limits, ZONE).entries
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
    // the newest step is always there, even when it alone is over the limit (SPEC §10)
    expect(windowEntries(entries, { maxMessages: 2, maxChars: 1e6 })).to.deep.equal(entries.slice(3))
    const w = windowEntries(entries, { maxMessages: 3, maxChars: 1e6 })
    expect(w).to.deep.equal(entries.slice(3))
    const msgs = toModelMessages(w, false, ZONE)
    expect(msgs.map(m => m.role)).to.deep.equal(['assistant', 'tool', 'user'])
  })
  it('trims by characters too, but always keeps the newest entry', () => {
    const entries = [fact(1, 'group:1', 'x'.repeat(500)), fact(2, 'group:1', 'y'.repeat(500))]
    expect(windowEntries(entries, { maxMessages: 100, maxChars: 600 })).to.have.length(1)
    expect(windowEntries(entries, { maxMessages: 100, maxChars: 10 })).to.have.length(1)
  })
  it('groups facts into one user message with channel headers in cross mode', () => {
    const msgs = toModelMessages([fact(1, 'group:1'), fact(2, 'group:1'), fact(3, 'group:2')], true, ZONE)
    expect(msgs).to.have.length(1)
    const lines = (msgs[0].content as string).split('\n')
    expect(lines.filter(l => l.startsWith('[channel '))).to.deep.equal(['[channel bot="x:1" channel="group:1"]', '[channel bot="x:1" channel="group:2"]'])
  })
})

describe('a request window is never empty (SPEC §10)', () => {
  const turn = (n: number): Entry => ({ type: 'turn', at: 0, turn: n, reason: 'mention' })
  const waking = (n: number): Entry => ({ ...fact(n), wake: 'mention' } as Entry)
  const bigStep = (id: string, size: number): Entry => ({
    type: 'step', at: 0, turn: 2, messages: [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'read', input: { url: 'local://a' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'read', output: { type: 'text', value: 'z'.repeat(size) } }] },
    ],
  })
  const attachments: Entry = { type: 'attachments', at: 0, turn: 2, id: 'b', source: 'tool', tool: 'read', items: [] }

  it('holds the facts that woke the turn and the newest step, even when they alone are over maxChars', () => {
    const entries = [fact(1), turn(1), step('a'), waking(2), turn(2), bigStep('b', 70_000), attachments]
    const w = windowOf(entries, { maxMessages: 200, maxChars: 60_000 }, ZONE)
    expect(w.over).to.equal(true)
    expect(w.entries).to.deep.equal([waking(2), turn(2), bigStep('b', 70_000), attachments])
    const messages = toModelMessages(w.entries, false, ZONE)
    expect(messages.map(m => m.role)).to.deep.equal(['user', 'assistant', 'tool'])
  })

  it('keeps as many of the turn\'s earlier steps as fit, and says when some were left out', () => {
    const entries = [waking(1), turn(2), bigStep('a', 30_000), bigStep('b', 30_000), bigStep('c', 30_000)]
    const w = windowOf(entries, { maxMessages: 200, maxChars: 70_000 }, ZONE)
    expect(w.over).to.equal(false)
    expect(w.entries.map(e => e.type === 'note' ? e.text : e.type)).to.deep.equal(['fact', 'turn', GAP_NOTE, 'step', 'step'])
    expect((w.entries[4] as any).messages[0].content[0].toolCallId).to.equal('c')
  })

  it('shortened parts keep their start and the read call to their whole text', async () => {
    const archived: string[] = []
    const out = await shortenEntries([waking(1), bigStep('b', 70_000)], 60_000, async text => { archived.push(text); return 'artifact://context/abc.txt' })
    const value = (out[1] as any).messages[1].content[0].output.value as string
    expect(value.startsWith('z'.repeat(1000))).to.equal(true)
    expect(value.length).to.be.below(60_000)
    expect(value).to.match(/\[shortened to fit your context window; the whole text: read\(\{url: "artifact:\/\/context\/abc\.txt"\}\)\]$/)
    expect(archived).to.deep.equal(['z'.repeat(70_000)])
  })
})

describe('trimmed in blocks (SPEC §16)', () => {
  const limits = { maxMessages: 20, maxChars: 1e6 }
  const turnOf = (n: number): Entry => ({ type: 'turn', at: n, turn: n, reason: 'mention' })
  const replied = (n: number): Entry => ({ ...step(`c${n}`), turn: n } as Entry)
  /** A chat of `turns` woken turns (fact, turn, one step); the windows of their requests. */
  function chat(turns: number, trimTo: number, entries: Entry[] = []): BlockWindow[] {
    const windows: BlockWindow[] = []
    let anchor: Entry | undefined
    for (let n = 1; n <= turns; n++) {
      entries.push({ ...fact(n), wake: 'mention' } as Entry, turnOf(n))
      const w = blockWindow(entries, limits, trimTo, ZONE, anchor)
      anchor = w.anchor
      windows.push(w)
      entries.push(replied(n))
    }
    return windows
  }
  const messagesIn = (w: BlockWindow) => w.entries.reduce((n, e) => n + sizeOf(e, ZONE).messages, 0)

  it('extends the same first entry until the limit, then cuts back to trimTo of it', () => {
    const windows = chat(40, 0.5)
    let cuts = 0
    for (let i = 1; i < windows.length; i++) {
      const [before, now] = [windows[i - 1], windows[i]]
      expect(messagesIn(now)).to.be.at.most(limits.maxMessages)
      if (now.entries[0] === before.entries[0]) {
        // the previous window is a prefix of this one
        expect(now.entries.slice(0, before.entries.length)).to.deep.equal(before.entries)
        continue
      }
      cuts++
      expect(messagesIn(now)).to.be.at.most(limits.maxMessages / 2)
      expect(messagesIn(now)).to.be.at.least(limits.maxMessages / 2 - 4)
    }
    // 4 messages a turn, 10 turns before the first cut, then a cut every ~3 turns
    expect(cuts).to.be.within(8, 12)
  })

  it('trimTo 1 slides as before: every window is the newest that fits', () => {
    const entries: Entry[] = []
    const windows = chat(30, 1, entries)
    expect(windows.every(w => w.anchor === undefined)).to.equal(true)
    // the last window is the plain newest-first one
    expect(windows.at(-1)!.entries).to.deep.equal(windowOf(entries.slice(0, -1), limits, ZONE).entries)
    const firsts = new Set(windows.slice(10).map(w => w.entries[0]))
    expect(firsts.size).to.equal(20)
  })

  it('recomputes when the anchor left memory, and never anchors a window with a gap', () => {
    const entries: Entry[] = []
    const windows = chat(12, 0.5, entries)
    const gone = { ...(windows.at(-1)!.anchor as Entry) }
    const again = blockWindow(entries, limits, 0.5, ZONE, gone)
    expect(again.anchor).to.not.equal(gone)
    expect(messagesIn(again)).to.be.at.most(limits.maxMessages / 2)
    // one turn whose steps alone fill more than half the window: a gap, no anchor
    const long: Entry[] = [fact(1), { ...fact(2), wake: 'mention' } as Entry, turnOf(2), ...Array.from({ length: 12 }, (_, i) => replied(100 + i))]
    const w = blockWindow(long, { maxMessages: 20, maxChars: 1e6 }, 0.5, ZONE)
    expect(w.gap).to.equal(true)
    expect(w.anchor).to.equal(undefined)
    expect(w.entries.slice(0, 2)).to.deep.equal([long[1], long[2]])
  })

  it('a turn\'s opening line stands with the facts that woke it', () => {
    const entries: Entry[] = [fact(1), fact(2), turnOf(3), { type: 'note', at: 3, kind: 'wake', text: '[wake: the 30 s you chose to wait have passed]' }]
    // no step yet, no waking fact (a wait ended): the opening and its note are the mandatory part
    const w = windowOf(entries, { maxMessages: 1, maxChars: 1e6 }, ZONE)
    expect(w.entries).to.deep.equal(entries.slice(2))
    // the opening's note reads before the turn's time: the present is the last line (SPEC §27)
    expect(toModelMessages(w.entries, false, ZONE)).to.deep.equal([{ role: 'user', content: `[wake: the 30 s you chose to wait have passed]\n${turnLine(3, ZONE)}` }])
  })
})
