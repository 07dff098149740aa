import { expect } from 'chai'
import { typingDelay, countChars } from '../src/typing/delay'
import { isClaimed, patternError } from '../src/claims/match'
import { channelKey, normalizeTarget } from '../src/claims/channel-key'
import { windowEntries, toModelMessages } from '../src/runtime/request/build-messages'
import { stepEndsTurn } from '../src/runtime/stop-rule'
import { standardWakeEngine } from '../src/runtime/wake/standard'
import type { Entry, Fact } from '../src/runtime/types'
import { uuidv7, UUIDV7 } from '../src/util/uuidv7'
import { safeName } from '../src/util/safe-name'
import { Conversation } from '../src/runtime/conversation'
import { HistoryStore } from '../src/runtime/history-store'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const typing = { baseDelay: 500, charPerSecond: 5, minDelay: 800, maxDelay: 4000, jitter: 0.25 }

describe('typing delay (SPEC §4.7)', () => {
  it('counts CJK, kana, hangul and full-width punctuation apart from the rest', () => {
    expect(countChars('你好，世界！')).to.deep.equal({ cjk: 6, latin: 0 })
    expect(countChars('かなカナ한글')).to.deep.equal({ cjk: 6, latin: 0 })
    expect(countChars('hi 👋')).to.deep.equal({ cjk: 0, latin: 4 })
  })
  it('follows the formula with the injected random source', () => {
    // 5 CJK at 5/s = 1000 ms, 3 latin at 7.5/s = 400 ms; f = 1 - 0.25 + 0.5 * 0.5 = 1
    expect(typingDelay('你好世界呀abc', typing, () => 0.5)).to.equal(500 + 1400)
    expect(typingDelay('你好世界呀abc', typing, () => 0)).to.equal(500 + 1400 * 0.75)
    expect(typingDelay('你好世界呀abc', typing, () => 1)).to.equal(500 + 1400 * 1.25)
  })
  it('clamps, and gives minDelay for empty text or a non-positive speed', () => {
    expect(typingDelay('a', typing, () => 0.5)).to.equal(800)
    expect(typingDelay('字'.repeat(100), typing, () => 0.5)).to.equal(4000)
    expect(typingDelay('', typing, () => 0.5)).to.equal(800)
    expect(typingDelay('hello', { ...typing, charPerSecond: 0 }, () => 0.5)).to.equal(800)
  })
})

describe('claims (SPEC §1)', () => {
  const claims = [{ bot: 'onebot:10000', channels: ['group:*', '!group:999', 'private:*'] }, { bot: '*', channels: ['room1'] }]
  const table: [string, string, boolean][] = [
    ['onebot:10000', 'group:123', true],
    ['onebot:10000', 'group:999', false],
    ['onebot:10000', 'private:42', true],
    ['onebot:20000', 'group:123', false],
    ['discord:1', 'group:room1', true],   // a raw id pattern matches the group: spelling
    ['discord:1', 'room1', true],
    ['discord:1', 'group:room2', false],
  ]
  for (const [bot, channel, want] of table) {
    it(`${bot} ${channel} → ${want}`, () => expect(isClaimed(claims, bot, channel)).to.equal(want))
  }
  it('an exclusion of either spelling wins over a positive match', () => {
    expect(isClaimed([{ bot: '*', channels: ['*', '!999'] }], 'a:b', 'group:999')).to.equal(false)
    expect(isClaimed([{ bot: '*', channels: ['*', '!group:999'] }], 'a:b', 'group:999')).to.equal(false)
  })
  it('rejects malformed patterns', () => {
    expect(patternError('gr*up')).to.match(/only at the end/)
    expect(patternError('!')).to.match(/empty/)
    expect(patternError('a b')).to.match(/white space/)
    expect(patternError('group:*')).to.equal(undefined)
  })
  it('channel keys name groups group:<id> and keep private ids', () => {
    expect(channelKey('123', false)).to.equal('group:123')
    expect(channelKey('private:7', true)).to.equal('private:7')
    expect(normalizeTarget('123')).to.equal('group:123')
    expect(normalizeTarget('group:1')).to.equal('group:1')
  })
})

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

describe('stop rule (SPEC §4.6)', () => {
  const send = (output: any, input: any = {}) => ({ name: 'send_message', valid: true, input, output })
  it('finish or wait end the turn', () => {
    expect(stepEndsTurn([{ name: 'finish', valid: true, input: {}, output: { ok: true } }])).to.equal(true)
    expect(stepEndsTurn([send({ ok: true }, { continue: true }), { name: 'wait', valid: true, input: {}, output: {} }])).to.equal(true)
  })
  it('a successful send without continue ends it unless another tool ran', () => {
    expect(stepEndsTurn([send({ ok: true })])).to.equal(true)
    expect(stepEndsTurn([send({ ok: true }, { continue: true })])).to.equal(false)
    expect(stepEndsTurn([send({ ok: false })])).to.equal(false)
    expect(stepEndsTurn([send({ ok: true }), { name: 'read', valid: true, input: {}, output: {} }])).to.equal(false)
    expect(stepEndsTurn([send({ ok: true }), { name: 'finish', valid: false, input: {}, output: undefined }])).to.equal(false)
  })
})

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

describe('small utilities', () => {
  it('uuidv7 ids are valid and increase', () => {
    const ids = Array.from({ length: 100 }, () => uuidv7())
    expect(ids.every(id => UUIDV7.test(id))).to.equal(true)
    expect([...ids].sort()).to.deep.equal(ids)
  })
  it('safeName is file-system safe and distinct', () => {
    expect(safeName('group:123')).to.equal('group%3A123')
    expect(safeName('..')).to.equal('%2E%2E')
    expect(safeName('a/b')).to.not.include('/')
  })
})

describe('conversation memory', () => {
  it('keeps only a bounded tail of the history in memory, and says the window was trimmed', async () => {
    const written: Entry[] = []
    const profile = { context: { maxMessages: 10, maxChars: 1e6 }, mode: 'channel', attachment: { imageInput: false } } as any
    const conv = new Conversation({
      key: 'k', profile, bot: 'x:1', logger: console, store: { append: async (e: Entry[]) => { written.push(...e) } } as any,
      model: () => undefined, system: () => '', tools: () => new Map(), host: () => undefined, setTimer: () => () => {}, now: () => 0,
      stores: undefined, loadImage: async () => { throw new Error('none') },
    })
    for (let i = 0; i < 2000; i++) await conv.append([fact(i)])
    expect(written).to.have.length(2000)
    expect(conv.entries.length).to.be.at.most(Math.ceil((10 * 3 + 200) * 1.5))
    expect((conv.entries.at(-1) as any).fact.id).to.equal('1999')
    const { messages } = await conv.buildRequest()
    expect(messages[0]).to.deep.equal({ role: 'user', content: '[earlier history is outside your context window]' })
  })
})

describe('history store', () => {
  it('concurrent appends land in order, once each, and survive a reload', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kotodama-hist-'))
    try {
      const store = new HistoryStore(join(dir, 'c', 'k.jsonl'), console)
      await Promise.all(Array.from({ length: 300 }, (_, i) => store.append([fact(i)])))
      await store.flushed()
      const lines = (await readFile(join(dir, 'c', 'k.jsonl'), 'utf8')).trim().split('\n')
      expect(lines.map(l => JSON.parse(l).fact.id)).to.deep.equal(Array.from({ length: 300 }, (_, i) => String(i)))
      const again = new HistoryStore(join(dir, 'c', 'k.jsonl'), console)
      expect(await again.load()).to.have.length(300)
      expect(await again.reset()).to.match(/k\.reset-\d+\.jsonl$/)
      expect(await again.load()).to.deep.equal([])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('history tail', () => {
  it('loads the last entries of a long file without reading it whole, and says there is more', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kotodama-tail-'))
    try {
      const path = join(dir, 'k.jsonl')
      const store = new HistoryStore(path, console)
      // entries long enough that the tail spans several 256 KiB chunks
      for (let i = 0; i < 3000; i++) await store.append([fact(i, 'group:1', `message ${i} ${'x'.repeat(300)}`)])
      await store.flushed()
      const again = new HistoryStore(path, console)
      const tail = await again.loadTail(1000)
      expect(tail.more).to.equal(true)
      expect(tail.entries.map((e: any) => e.fact.id)).to.deep.equal(Array.from({ length: 1000 }, (_, i) => String(2000 + i)))
      const all = await again.loadTail(5000)
      expect(all.more).to.equal(false)
      expect(all.entries).to.have.length(3000)
      const exact = await again.loadTail(3000)
      expect(exact.more).to.equal(false)
      expect(exact.entries).to.have.length(3000)
      expect((await again.loadTail(2999)).more).to.equal(true)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
