// Recall's parts (docs/recall.md): the analyzer, segments and merges against a plain in-memory
// ranking, MaxScore against scoring every candidate, damaged files, dates, snippets, history URLs.
import { expect } from 'chai'
import { mkdtemp, readdir, rm, writeFile, readFile, truncate } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { analyze, queryTerms } from '../../src/recall/analyze'
import { ConvIndex } from '../../src/recall/conv-index'
import { ByteReader, ByteWriter } from '../../src/recall/codec'
import { dateTest, queryDates } from '../../src/recall/dates'
import type { RecallDoc } from '../../src/recall/docs'
import { docsOf } from '../../src/recall/docs'
import { parseHistoryUrl, historyUrl } from '../../src/recall/history-url'
import { newestKeysOf } from '../../src/recall/catch-up'
import { LiveBuffer } from '../../src/recall/live'
import { rank } from '../../src/recall/rank'
import { CorruptIndex, Segment } from '../../src/recall/segment'
import { snippet } from '../../src/recall/snippet'
import { VectorStore } from '../../src/recall/vectors'

const quiet = { debug() {}, info() {}, warn() {}, error() {} }
const terms = (t: string) => analyze(t).map(x => x.term)

function corpus(n: number, seed = 1): RecallDoc[] {
  let a = seed
  const r = () => ((a = (a * 1103515245 + 12345) % 2147483648) / 2147483648)
  const words = ['apple', 'banana', 'cherry', 'river', 'mountain', 'concert', 'guitar', 'running', 'painted', '北京', '烤鸭', '长城', 'jazz', 'piano', 'garden']
  return Array.from({ length: n }, (_, i) => {
    const who = ['alice', 'bob', 'carol'][Math.floor(r() * 3)]
    const text = Array.from({ length: 2 + Math.floor(r() * 6) }, () => words[Math.floor(r() ** 2 * words.length)]).join(' ') + ` n${i}`
    return { k: `f:g:${i}`, id: String(i), at: Date.UTC(2024, 0, 1) + i * 3_600_000, who, uid: who, ch: 'g', text }
  })
}

describe('recall index (SPEC §17)', function () {
  this.timeout(20000)
  let dir: string
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'kotodama-recall-')) })
  afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

  describe('the analyzer', function () {
    it('stems English, maps irregular forms, drops clitics and stop words', function () {
      expect(terms("I've been researching adoption agencies; Caroline's children went running")).to.deep.equal(['research', 'adopt', 'agenc', 'carolin', 'child', 'go', 'run'])
      expect(terms('research agency child go run')).to.deep.equal(['research', 'agenc', 'child', 'go', 'run'])
    })

    it('cuts Chinese and Japanese into words, pairs of Han characters and single ones', function () {
      const zh = analyze('小李换工作了，去了腾讯')
      expect(zh.filter(t => t.kind === 'word').map(t => t.term)).to.include.members(['工作', '换'])
      // ICU cuts 腾|讯 here; the pair still meets the word of a query
      expect(zh.filter(t => t.kind === 'pair').map(t => t.term)).to.include('腾讯')
      expect(zh.filter(t => t.kind === 'char').map(t => t.term)).to.include.members(['工', '作'])
      expect(terms('今日は東京で寿司を食べました')).to.include.members(['東京', '寿司'])
      // question words and particles are not terms
      expect(terms('什么时候去哪里')).to.deep.equal(['去'])
      const q = queryTerms('北京烤鸭')
      expect(q.find(t => t.term === '北京')?.weight).to.equal(1)
      expect(q.find(t => t.term === '京')?.weight).to.equal(0.25)
    })
  })

  it('segments and merges answer exactly as the live buffer does, and survive reopening', async function () {
    const docs = corpus(900)
    const memory = new LiveBuffer(0)
    docs.forEach(d => memory.add(d))
    const idx = await ConvIndex.open(dir, quiet, { liveMax: 50, mergeFactor: 3 })
    for (let i = 0; i < docs.length; i += 37) await idx.add(docs.slice(i, i + 37))
    await idx.idle()
    await idx.merged()
    expect(idx.segments.length).to.be.greaterThan(1)
    expect(idx.segments.some(s => s.count > 50)).to.equal(true)
    const queries = ['apple river', 'concert guitar painted', '北京 烤鸭', 'n123', 'mountain jazz piano garden', 'banana bob']
    const expectSame = (i: ConvIndex) => {
      for (const q of queries) {
        const want = rank([memory], queryTerms(q), { limit: 20 })
        const got = i.search(queryTerms(q), { limit: 20 })
        expect(got.hits.map(h => h.n), q).to.deep.equal(want.hits.map(h => h.n))
        got.hits.forEach((h, k) => expect(h.score).to.be.closeTo(want.hits[k].score, 1e-4))
      }
      expect(i.docs(0, 900).map(d => d.text)).to.deep.equal(docs.map(d => d.text))
      // a message is found by its id, in a segment, a merged one or the live buffer
      for (const n of [0, 49, 50, 451, 899]) expect(i.numberOf(String(n))).to.equal(n)
      expect(i.numberOf('900')).to.equal(undefined)
    }
    expectSame(idx)
    await idx.close()
    const again = await ConvIndex.open(dir, quiet, { liveMax: 50, mergeFactor: 3 })
    expect(again.count).to.equal(900)
    expect(newestKeysOf(again).at(-1)).to.equal('f:g:899')
    expectSame(again)
    await again.close()
  })

  it('MaxScore gives the top k of scoring every candidate', async function () {
    const live = new LiveBuffer(0)
    corpus(3000, 7).forEach(d => live.add(d))
    for (const q of ['apple', 'apple banana cherry', 'n42 apple', 'river mountain 北京', 'garden piano alice']) {
      const top = rank([live], queryTerms(q), { limit: 10 }).hits
      const all = rank([live], queryTerms(q), { limit: 100000 }).hits.slice(0, 10)
      expect(top, q).to.deep.equal(all)
    }
  })

  it('neighbours lend half their weight; a message with no word of the query needs the asked name', function () {
    const live = new LiveBuffer(0)
    const add = (who: string, text: string) => live.add({ k: `k${live.count}`, id: String(live.count), at: 0, who, uid: who, ch: 'g', text })
    add('bob', 'what do you do to unwind?')
    add('alice', 'honestly pottery')
    add('carol', 'pottery class was full')
    add('dave', 'lunch')
    const hits = (q: string) => rank([live], queryTerms(q), { limit: 10 }).hits.map(h => h.n)
    // alice's reply holds no word of the query: only her name brings it, through bob's question
    expect(hits('unwind')).to.deep.equal([0])
    expect(hits('alice unwind')).to.deep.equal([0, 1])
    // bob's and alice's messages each hold one word and lend the other: both pass carol's, which holds only one
    expect(hits('pottery unwind')).to.deep.equal([0, 1, 2])
  })

  it('a date in the query: that day\'s messages first; a date alone finds them', function () {
    const live = new LiveBuffer(0)
    const day = (d: number, h = 12) => new Date(2024, 0, d, h).getTime()
    const add = (at: number, text: string) => live.add({ k: `k${live.count}`, id: String(live.count), at, who: 'a', uid: 'a', ch: 'g', text })
    add(day(1), 'pizza at the station')
    add(day(2, 9), 'pizza downtown')
    add(day(2, 18), 'rain all evening')
    add(day(3), 'pizza again')
    const now = day(4)
    const hits = (q: string) => rank([live], queryTerms(q), { limit: 10, dates: queryDates(q, now) }).hits.map(h => h.n)
    expect(hits('pizza')).to.deep.equal([3, 1, 0])
    // the evening's message holds no pizza, but it is of the asked day and next to one that does
    expect(hits('pizza on 2024-01-02')).to.deep.equal([1, 2, 3, 0])
    expect(hits('2024年1月2日')).to.deep.equal([2, 1])
  })

  it('varints: what the writer wrote reads back, up to 2^53; one cut short is CorruptIndex', function () {
    const numbers = [0, 1, 127, 128, 300, 16383, 16384, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER]
    const w = new ByteWriter(4)
    for (const n of numbers) w.varint(n)
    const r = new ByteReader(w.view)
    expect(numbers.map(() => r.varint())).to.deep.equal(numbers)
    expect(r.done).to.equal(true)
    expect(() => new ByteReader(w.view.subarray(0, w.length - 1), w.length - 3).varint()).to.throw(CorruptIndex)
  })

  it('a damaged file is CorruptIndex; a torn last line of the live log is dropped', async function () {
    const idx = await ConvIndex.open(dir, quiet, { liveMax: 10, mergeFactor: 10 })
    await idx.add(corpus(25))
    await idx.close()
    const seg = (await readdir(dir)).find(f => f.endsWith('.seg'))!
    const log = join(dir, 'live.log')
    const lines = (await readFile(log, 'utf8')).split('\n').filter(Boolean)
    expect(lines.length).to.equal(5)
    await writeFile(log, lines.slice(0, 4).join('\n') + '\n' + lines[4].slice(0, 7))
    const reopened = await ConvIndex.open(dir, quiet, { liveMax: 10, mergeFactor: 10 })
    expect(reopened.count).to.equal(24)
    await reopened.close()
    await writeFile(log, lines[0] + '\n' + lines[2] + '\n')
    let error: unknown
    await ConvIndex.open(dir, quiet).catch(e => { error = e })
    expect(error).to.be.instanceOf(CorruptIndex)
    await writeFile(log, '')
    const bytes = await readFile(join(dir, seg))
    bytes[bytes.length - 20] ^= 0xff
    await writeFile(join(dir, seg), bytes)
    expect(() => Segment.open(join(dir, seg))).to.throw(CorruptIndex, /footer checksum/)
    await truncate(join(dir, seg), 10)
    expect(() => Segment.open(join(dir, seg))).to.throw(CorruptIndex, /too short/)
  })

  it('reads dates in queries and tests times against them', function () {
    const now = new Date(2024, 4, 9, 12).getTime()
    expect(queryDates('what happened on 2024-05-08', now)).to.deep.equal([{ y: 2024, m: 5, d: 8 }])
    expect(queryDates('2023年5月8日 和 6月1号', now)).to.deep.equal([{ y: 2023, m: 5, d: 8 }, { m: 6, d: 1 }])
    expect(queryDates('May 8, 2023 and 3rd of March', now)).to.deep.equal([{ y: 2023, m: 5, d: 8 }, { m: 3, d: 3 }])
    expect(queryDates('in June', now)).to.deep.equal([{ m: 6 }])
    expect(queryDates('you may go', now)).to.deep.equal([])
    expect(queryDates('昨天说了什么', now)).to.deep.equal([{ y: 2024, m: 5, d: 8 }])
    const test = dateTest([{ y: 2024, m: 5, d: 8 }])
    expect(test(new Date(2024, 4, 8, 23, 59).getTime() / 1000)).to.equal(true)
    expect(test(new Date(2024, 4, 9, 0, 0).getTime() / 1000)).to.equal(false)
  })

  it('the days a query names are the chat\'s (budgets.timezone), as its lines read times', function () {
    // 01:00 on 10 May in Shanghai is still 9 May in UTC
    const now = Date.UTC(2024, 4, 9, 17)
    expect(queryDates('昨天说了什么', now, 'Asia/Shanghai')).to.deep.equal([{ y: 2024, m: 5, d: 9 }])
    expect(queryDates('yesterday', now, 'UTC')).to.deep.equal([{ y: 2024, m: 5, d: 8 }])
    const may8 = dateTest([{ y: 2024, m: 5, d: 8 }], 'Asia/Shanghai')
    expect(may8(Date.UTC(2024, 4, 7, 16, 30) / 1000)).to.equal(true)
    expect(may8(Date.UTC(2024, 4, 8, 16, 30) / 1000)).to.equal(false)
    const june = dateTest([{ m: 6 }], 'Asia/Shanghai')
    expect([Date.UTC(2024, 4, 31, 16, 30), Date.UTC(2024, 5, 1, 12), Date.UTC(2024, 5, 30, 16, 30)].map(t => june(t / 1000))).to.deep.equal([true, true, false])
    expect(dateTest([{ m: 5, d: 8 }], 'Asia/Shanghai')(Date.UTC(2023, 4, 7, 20) / 1000)).to.equal(true)
  })

  it('a snippet keeps to 300 units around the first match', function () {
    const text = 'a'.repeat(1000) + ' needle ' + 'b'.repeat(1000)
    const s = snippet(text, new Set(['needl']))
    expect(s.length).to.be.at.most(300)
    expect(s).to.include('needle').and.match(/^…a+ needle b+…$/)
    expect(snippet('short one', new Set())).to.equal('short one')
  })

  it('history URLs name a conversation and a message by its id', function () {
    expect(historyUrl('group:123', '88123')).to.equal('history://group%3A123/88123')
    expect(historyUrl('group:123')).to.equal('history://group%3A123')
    expect(parseHistoryUrl('history://group%3A123/88123')).to.deep.equal({ key: 'group:123', id: '88123' })
    expect(parseHistoryUrl('history://private%3Aalice?view=meta')).to.deep.equal({ key: 'private:alice', view: 'meta' })
    // the id is the rest of the URL, as encodeSegment writes it, or as a line shows it
    for (const id of ['a/b', 'a b%c', 'x?y', 'é:ü', 'z'.repeat(200)]) {
      expect(parseHistoryUrl(historyUrl('group:1', id) + '?view=meta')).to.deep.equal({ key: 'group:1', id, view: 'meta' })
    }
    expect(parseHistoryUrl('history://g/a/b').id).to.equal('a/b')
    expect(parseHistoryUrl('history://g/a%20b%28%u2028').id).to.equal('a b(\u2028')
    expect(() => parseHistoryUrl('history:///5')).to.throw(/is not history:\/\/<conversation>\/<message id>/)
    expect(() => parseHistoryUrl('history://g%ZZ/5')).to.throw(/percent-encoded/)
  })

  it('takes people\'s messages and the mind\'s delivered sends from the history', function () {
    const fact = { id: 'm1', at: 1, bot: 'mock:514', channel: 'group:g', direct: false, user: { id: 'u1', name: 'Alice' }, content: 'hi <at id="514" name="Neko"/> <img src="asset://x"/>' }
    const step = {
      type: 'step' as const, at: 2, turn: 1, messages: [
        { role: 'assistant' as const, content: [{ type: 'tool-call' as const, toolCallId: 'c1', toolName: 'send_message', input: { messages: ['one', 'two'] } }, { type: 'tool-call' as const, toolCallId: 'c2', toolName: 'send_message', input: { messages: ['lost'] } }] },
        { role: 'tool' as const, content: [
          { type: 'tool-result' as const, toolCallId: 'c1', toolName: 'send_message', output: { type: 'json' as const, value: { ok: true, ids: ['s1', 's2'] } } },
          { type: 'tool-result' as const, toolCallId: 'c2', toolName: 'send_message', output: { type: 'json' as const, value: { ok: false, sent: [] as string[], failedAt: 0, error: { name: 'E', message: 'x' } } } },
        ] },
      ],
    }
    const docs = docsOf([{ type: 'fact', at: 1, fact }, step as any], { bot: 'mock:514', name: 'Neko' })
    expect(docs.map(d => [d.id, d.who, d.text, !!d.self])).to.deep.equal([['m1', 'Alice', 'hi @Neko [image]', false], ['s1', 'Neko', 'one', true], ['s2', 'Neko', 'two', true]])
  })

  it('vectors: quantised, nearest first, dropped when the model changes', async function () {
    const v = new VectorStore(dir, 'emb-a')
    await v.load()
    await v.append([[1, 0, 0], [0, 1, 0], [0.9, 0.1, 0], [0, 0, 1]])
    const near = await v.search([1, 0, 0], 2)
    expect(near.map(h => h.n)).to.deep.equal([0, 2])
    expect(near[0].score).to.be.closeTo(1, 0.01)
    const again = new VectorStore(dir, 'emb-a')
    await again.load()
    expect(again.count).to.equal(4)
    const other = new VectorStore(dir, 'emb-b')
    await other.load()
    expect(other.count).to.equal(0)
  })
})
