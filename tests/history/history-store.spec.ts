import { expect } from 'chai'
import type { Entry } from '../../src/history/entries'
import { Conversation } from '../../src/runtime/conversation'
import { HistoryStore } from '../../src/history/file-store'
import type { Clock, Timer } from '../../src/util/clock'
import { Redactor } from '../../src/util/redact'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const fact = (n: number, channel = 'group:1', content = `message ${n}`): Entry => ({
  type: 'fact', at: 0, fact: { id: String(n), at: 0, bot: 'x:1', channel, direct: false, user: { id: 'u', name: 'U' }, content },
})

describe('conversation memory', () => {
  it('keeps only a bounded tail of the history in memory, and says the window was trimmed', async () => {
    const written: Entry[] = []
    const profile = { context: { maxMessages: 10, maxChars: 1e6 }, mode: 'channel', attachment: { imageInput: false } } as any
    const clock: Clock = {
      now: () => 0, monotonic: () => 0, queueMicrotask: fn => queueMicrotask(fn),
      setTimeout: () => { const timer: Timer = { cancel: () => {}, unref: () => timer }; return timer },
    }
    const conv = new Conversation({
      key: 'k', profile, timezone: '', logger: console, clock, redact: new Redactor([]), store: { append: async (e: Entry[]) => { written.push(...e) } } as any,
      model: () => undefined, system: () => '', toolsFor: () => () => new Map(), hostFor: () => undefined,
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

describe('history lines that are not entries (SPEC §10)', () => {
  it('are skipped with a warning naming the file and line, also when only the tail is loaded', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kotodama-hist-'))
    try {
      const path = join(dir, 'k.jsonl')
      const bad = ['null', '42', '"text"', '{"type":"fact","at":1}', '{"type":"shown","at":1}', '{"type":"step","at":1,"turn":1}',
        '{"type":"note","at":1}', '{"type":"step","at":1,"turn":1,"messages":[{"role":"wizard","content":1}]}', '{not json', '[]']
      const lines = [JSON.stringify(fact(1)), ...bad, JSON.stringify(fact(2))]
      const { writeFile } = await import('node:fs/promises')
      await writeFile(path, lines.join('\n') + '\n')
      const warnings: string[] = []
      const logger = { ...console, warn: (f: string, ...a: any[]) => warnings.push(require('node:util').format(f, ...a)) }
      const all = await new HistoryStore(path, logger).load()
      expect(all.map(e => (e as any).fact.id)).to.deep.equal(['1', '2'])
      expect(warnings).to.have.length(bad.length)
      bad.forEach((_, i) => expect(warnings[i]).to.include(`${path}:${i + 2}: skipped`))
      // only the tail: the line numbers are still those of the file
      warnings.length = 0
      const tail = await new HistoryStore(path, logger).loadTail(3)
      expect(tail.entries.map(e => (e as any).fact.id)).to.deep.equal(['2'])
      expect(warnings.at(-1)).to.include(`${path}:${bad.length + 1}: skipped`)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
