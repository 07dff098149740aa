// One number per message (SPEC §27, issue 38): a history:// URL names a message by the id its
// line shows (`#id`, what <quote id> takes), and search hits read times as lines do. Through the
// runtime: the request's line, the search hit and the page it reads name one message by one id;
// ids with odd characters; an index written before this change answering without a rebuild
// (tests/recall/fixtures/before-38: a data folder the code of commit 45239aa wrote through the
// harness, segments of 4 messages merging by 4: 7 messages in group "other", then 30 in "room"). Through the index: an old id of 20,000 messages, the newest of two
// with one id.
import { expect } from 'chai'
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mock } from 'node:test'
import h from '@satorijs/element'
import { Harness, call } from '../support/harness'
import { lastUserText, toolResultsOf } from '../support/fake-openai'
import { recallPart } from '../../src/recall/part'
import { historyUrl } from '../../src/recall/history-url'
import { formatTime } from '../../src/history/render-facts'
import { shownId } from '../../src/util/transcript-text'
import { ConvIndex } from '../../src/recall/conv-index'
import type { RecallDoc } from '../../src/recall/docs'
import { scanForId } from '../../src/recall/id-scan'

type Hit = { url: string; id: string | null; at: string; who: string | null; text: string }
const quiet = { debug() {}, info() {}, warn() {}, error() {} }

describe('recall: a message has one number, its id (SPEC §27)', function () {
  this.timeout(60000)
  let harness: Harness | undefined
  afterEach(async () => {
    await harness?.stop()
    harness = undefined
  })

  /** The calls run in one step of a turn woken in `room`; returns their results and the turn's first request. */
  async function turn(hh: Harness, calls: ReturnType<typeof call>[], wakeId?: string): Promise<{ results: any[]; request: any }> {
    const before = hh.server.requests.length
    hh.server.script({ toolCalls: calls }, { toolCalls: [call('finish', {})] })
    if (wakeId) receiveWithId(hh, 'zed', wakeId, '<at id="514"/> hey')
    else await hh.client('zed', 'room').receive('<at id="514"/> hey')
    await hh.server.waitForRequests(before + 2)
    await hh.settled()
    const results = toolResultsOf(hh.server.requests[before + 1]).slice(-calls.length).map(r => {
      try {
        return JSON.parse(r.content)
      } catch {
        return r.content
      }
    })
    return { results, request: hh.server.requests[before] }
  }

  /** A message of `user` in the room whose platform id is `id` (plugin-mock numbers its own, from 1 in a process). */
  function receiveWithId(hh: Harness, user: string, id: string, content: string): void {
    const client = hh.client(user, 'room')
    client.bot.receive({ ...client.event, message: { id, content, elements: h.parse(content) } }, client)
  }

  it('the request\'s line, the search hit and the page it reads name the message by one id, at one time', async () => {
    const hh = harness = await Harness.start({ budgets: { timezone: 'Asia/Shanghai' } })
    // another group first: the room's ids are not its message numbers
    for (const text of ['one', 'two', 'three']) await hh.client('carol', 'other').receive(text)
    await hh.settled()
    for (const [user, text] of [['alice', 'the spare key is under the blue flowerpot'], ['bob', 'thanks']]) await hh.client(user, 'room').receive(text)
    await hh.settled()
    const { results: [found], request } = await turn(hh, [call('search', { query: 'spare key' })])
    const hit: Hit = found.hits[0]
    expect(lastUserText(request)).to.include(`alice (alice) #${hit.id}: the spare key is under the blue flowerpot`)
    expect(hit.url).to.equal(`history://group%3Aroom/${hit.id}`)
    const idx = await (await hh.app.kotodama.list())[0].part(recallPart)!.recall.index('group:room')
    // the chat's zone (budgets.timezone), as lines read
    expect(hit.at).to.equal(formatTime(idx.docs(0, 1)[0].at, 'Asia/Shanghai'))
    const { results: [page] } = await turn(hh, [call('read', { url: hit.url })])
    expect(page.split('\n').filter((r: string) => r.startsWith('→ '))).to.deep.equal([
      `→ [${hit.at}] alice (alice) #${hit.id}: the spare key is under the blue flowerpot`,
    ])
  })

  it('ids with "/", "%", spaces or 200 characters: the hit\'s URL reads the page, and so does the id as its line shows it', async () => {
    const hh = harness = await Harness.start()
    const ids = ['a/b', '50%off', 'two words', 'z'.repeat(200)]
    const words = ['apricot', 'blueberry', 'coconut', 'damson']
    ids.forEach((id, i) => receiveWithId(hh, 'alice', id, `odd message ${words[i]}`))
    await hh.settled()
    const { results } = await turn(hh, words.map(query => call('search', { query })))
    const hits: Hit[] = results.map(r => r.hits[0])
    expect(hits.map(x => x.id)).to.deep.equal(ids)
    expect(hits.map(x => x.url)).to.deep.equal(ids.map(id => historyUrl('group:room', id)))
    expect(hits[0].url).to.equal('history://group%3Aroom/a%2Fb')
    // what a model writes from the line: `#a/b`, `#50%25off`, `#two%20words`
    const fromLines = ['history://group%3Aroom/a/b', 'history://group%3Aroom/50%25off', 'history://group%3Aroom/two%20words']
    const { results: pages } = await turn(hh, [...hits, ...fromLines].map(x => call('read', { url: typeof x === 'string' ? x : x.url })))
    const marked = pages.map((p: string) => p.split('\n').find(r => r.startsWith('→ '))!.replace(/^→ \[[^\]]+\] /, ''))
    const want = ids.map((id, i) => `alice (alice) #${shownId(id)}: odd message ${words[i]}`)
    expect(marked).to.deep.equal([...want, ...want.slice(0, 3)])
    expect(want[3]).to.include(`#${'z'.repeat(128)}…:`)
  })

  it('a send whose id the platform did not tell: no #id on its line; its hit names the nearest message that has one', async () => {
    const hh = harness = await Harness.start()
    mock.method(hh.app.bots.find(b => b.selfId === '514')!, 'sendMessage', async (): Promise<string[]> => [])
    hh.server.script({ toolCalls: [call('send_message', { messages: ['the lemonade is in the blue cooler'] })] })
    await hh.client('alice', 'room').receive('<at id="514"/> where is the lemonade?')
    await hh.server.waitForRequests(1)
    await hh.settled()
    const { results: [found] } = await turn(hh, [call('search', { query: 'lemonade cooler' })])
    const hits: Hit[] = found.hits
    const [mine, asked] = [hits.find(x => x.who === '514 (you)')!, hits.find(x => x.who === 'alice')!]
    expect(mine).to.deep.include({ id: null, text: 'the lemonade is in the blue cooler' })
    // the message before it, alice's question, is the nearest with an id
    expect(asked.id).to.be.a('string')
    expect(mine.url).to.equal(`history://group%3Aroom/${asked.id}`)
    const { results: [page] } = await turn(hh, [call('read', { url: mine.url })])
    const rows: string[] = page.split('\n')
    expect(rows.filter(r => r.includes('lemonade')).map(r => r.replace(/^(→ )?\[[^\]]+\] /, '$1'))).to.deep.equal([
      `→ alice (alice) #${asked.id}: @514 where is the lemonade?`, '514 (you): the lemonade is in the blue cooler',
    ])
  })

  it('an index written before ids were terms answers without a rebuild or a warning', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'kotodama-before38-'))
    try {
      await cp(join(__dirname, 'fixtures', 'before-38'), dataDir, { recursive: true })
      const segment = join(dataDir, 'neko', 'mock', '514', 'recall', 'group%3Aroom', 'm0-16.seg')
      const bytes = await readFile(segment)
      const hh = harness = await Harness.start({ dataDir })
      // (the fixture's ids are plugin-mock's of its run: the wakes have ids of their own)
      const { results: [treasure, key] } = await turn(hh, [call('search', { query: 'treasure map' }), call('search', { query: 'spare key' })], 'wake-1')
      // its messages were numbered 0..29 and have ids 8..37: the 5th is #12, the 27th #34
      expect(treasure.hits[0]).to.deep.include({ url: 'history://group%3Aroom/12', id: '12', text: 'the treasure map is in the attic' })
      expect(key.hits[0]).to.deep.include({ url: 'history://group%3Aroom/34', id: '34' })
      const urls = ['history://group%3Aroom/12', 'history://group%3Aroom/34', 'history://group%3Aroom/37', 'history://group%3Aroom/5']
      const { results: pages } = await turn(hh, urls.map(url => call('read', { url })), 'wake-2')
      const marked = pages.slice(0, 3).map((p: string) => p.split('\n').find(r => r.startsWith('→ '))!.replace(/^→ \[[^\]]+\] /, ''))
      expect(marked).to.deep.equal([
        'alice (alice) #12: the treasure map is in the attic', 'alice (alice) #34: the spare key is under the blue flowerpot', 'bob (bob) #37: filler number 30',
      ])
      // a URL of before names the 5th message by its number: no message has that id
      expect(pages[3]).to.match(/^not_found: conversation group:room has no message #5; a history:\/\/ URL names a message by the #id its line shows/)
      expect(hh.logs.map(l => l.text).filter(t => t.includes('indexing the history'))).to.deep.equal([])
      expect(hh.warnings().filter(w => w.includes('recall'))).to.deep.equal([])
      expect((await readFile(segment)).equals(bytes)).to.equal(true)
    } finally {
      await harness?.stop()
      harness = undefined
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('finds an old message among 20,000 by its id; of two with one id, the newest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kotodama-ids-'))
    try {
      const idx = await ConvIndex.open(dir, quiet)
      const doc = (i: number): RecallDoc => ({
        // cross mode: another channel's message 19,990 has the id of message 17
        k: `f:g:${i}`, id: i === 19_990 ? 'm-17' : `m-${i}`, at: Date.UTC(2024, 0, 1) + i * 60_000, who: 'u', uid: 'u', ch: 'g', text: `message ${i}`,
      })
      for (let i = 0; i < 20_000; i += 1000) await idx.add(Array.from({ length: 1000 }, (_, j) => doc(i + j)))
      await idx.idle()
      await idx.merged()
      expect(idx.segments.length).to.be.greaterThan(1)
      const ask = (i: ConvIndex) => ['m-17', 'm-18', 'm-12345', 'm-19999', 'm-20000'].map(id => i.numberOf(id))
      expect(ask(idx)).to.deep.equal([19_990, 18, 12_345, 19_999, undefined])
      // the first segment read back, as a segment written before ids were terms is
      const first = idx.segments[0]
      expect(scanForId(first, 'm-18', first.count)).to.equal(18)
      expect(scanForId(first, 'm-1500', first.count)).to.equal(1500)
      expect(scanForId(first, 'u', first.count)).to.equal(undefined)
      first.release()
      await idx.close()
      const again = await ConvIndex.open(dir, quiet)
      expect(ask(again)).to.deep.equal([19_990, 18, 12_345, 19_999, undefined])
      await again.close()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
