// Recall end to end (SPEC §17): the search tool through plugin-mock and the fake model server —
// English, Chinese and Japanese messages found by their words and other forms of them, names,
// the private/group boundary, notes by line, history:// pages, restart, a missing or unreadable
// index made again, the database storage, and an embeddings server that helps or fails.
import { expect } from 'chai'
import { mkdir, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Harness, call } from '../support/harness'
import { lastToolValues } from '../support/fake-openai'
import { FakeEmbeddings } from '../support/fake-embeddings'
import { memoryDatabase } from '../support/databases'
import { runtimeHome } from '../../src/runtime/runtime'
import { DEFAULT_TUNING } from '../../src/recall'
import { queryTerms } from '../../src/recall/analyze'
import { recallPart } from '../../src/recall/part'
import { formatTime } from '../../src/history/render-facts'

type Hit = { url: string; id: string | null; at: string; who: string | null; text: string }

describe('recall: the search tool and history:// (SPEC §17)', function () {
  this.timeout(20000)
  let h: Harness
  let embeddings: FakeEmbeddings | undefined
  afterEach(async () => {
    await h?.stop()
    await embeddings?.close()
    embeddings = undefined
  })

  const home = () => runtimeHome(h.dataDir, 'neko', 'mock:514')

  /** Each call of `calls` runs in one step of a turn woken in `channel` (a group, or a private chat); returns their results. */
  async function turn(calls: ReturnType<typeof call>[], where: { user?: string; channel?: string } = {}): Promise<any[]> {
    const before = h.server.requests.length
    h.server.script({ toolCalls: calls }, { toolCalls: [call('finish', {})] })
    const wake = where.channel ? '<at id="514"/> hey' : 'hey'
    await h.client(where.user ?? 'zed', where.channel).receive(wake)
    await h.server.waitForRequests(before + 2)
    await h.settled()
    return lastToolValues(h.server.requests[before + 1], calls.length)
  }

  const search = async (query: string, where: { user?: string; channel?: string } = { channel: 'room' }, limit?: number): Promise<Hit[]> =>
    (await turn([call('search', { query, ...(limit ? { limit } : {}) })], where))[0].hits

  async function say(channel: string | undefined, lines: [string, string][]) {
    for (const [user, text] of lines) await h.client(user, channel).receive(text)
    await h.settled()
  }

  const recall = async () => (await h.app.kotodama.list())[0].part(recallPart)!.recall

  it('finds English, Chinese and Japanese messages by the words they contain and by other forms of them', async () => {
    h = await Harness.start()
    await say('room', [
      ['alice', 'I have been researching adoption agencies lately'],
      ['bob', '我下周要去北京出差，顺便看看长城'],
      ['carol', '今日は東京で寿司を食べました'],
      ['dave', 'we went hiking with the children on Sunday'],
      ['erin', 'nice weather today'],
    ])
    const [agency] = await search('researched agency')
    expect(agency).to.deep.include({ who: 'alice', text: 'I have been researching adoption agencies lately' })
    expect(agency.id).to.be.a('string')
    // one number per message (SPEC §27): the URL names the message by its id; the time reads as lines read
    expect(agency.url).to.equal(`history://group%3Aroom/${agency.id}`)
    expect(agency.at).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d$/)
    // a Han character of a longer word finds too, below the whole word: 北京 before 東京
    expect((await search('北京')).map(x => x.who)).to.deep.equal(['bob', 'carol'])
    expect((await search('长城在哪')).map(x => x.who)).to.deep.equal(['bob'])
    expect((await search('寿司')).map(x => x.who)).to.deep.equal(['carol'])
    // irregular forms meet their base form, plurals their singular
    expect((await search('go hike child')).map(x => x.who)).to.deep.equal(['dave'])
    expect(await search('volcano')).to.deep.equal([])
  })

  it('is a direct tool and a tool of codemode programs; the protocol says when to search; recall off removes both', async () => {
    h = await Harness.start({ profile: { codemode: { enabled: true, direct: [] } } })
    await say('room', [['alice', 'the meeting moved to Thursday']])
    const [program] = await turn([call('codemode', { code: 'const r = await tools.search({ query: "meeting" }); return r.hits.map(x => x.who)' })], { channel: 'room' })
    expect(program).to.deep.equal(['alice'])
    const req = h.server.requests.at(-1)!
    expect(req.body.tools.map((t: any) => t.function.name)).to.include('search')
    expect(req.body.messages[0].content).to.include('Before you state, confirm or deny anything said earlier')
    await h.stop()
    h = await Harness.start({ profile: { recall: { enabled: false, embeddingModel: '' } } })
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice').receive('hi')
    await h.server.waitForRequests(1)
    expect(h.server.requests[0].body.tools.map((t: any) => t.function.name)).to.not.include('search')
    expect(h.server.requests[0].body.messages[0].content).to.not.include('search(').and.not.include('history')
  })

  it('ranks the asked person first, newest first among equals, and keeps to the limit', async () => {
    h = await Harness.start()
    await say('room', [['alice', 'pizza tonight?'], ['carol', 'pizza tonight?'], ['bob', 'pizza tonight?'], ['dave', 'pizza tonight?']])
    const hits = await search('carol pizza')
    expect(hits.map(x => x.who)).to.deep.equal(['carol', 'dave', 'bob', 'alice'])
    expect((await search('pizza', { channel: 'room' }, 2)).map(x => x.who)).to.deep.equal(['dave', 'bob'])
  })

  it('a group never finds or reads what was said in a private chat; cross mode searches every conversation', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('finish', {})] })
    await say(undefined, [['alice', 'my locker code is swordfish']])
    await say('room', [['bob', 'a swordfish in the aquarium']])
    const fromGroup = await search('swordfish')
    expect(fromGroup.map(x => [x.url, x.text])).to.deep.equal([[`history://group%3Aroom/${fromGroup[0].id}`, 'a swordfish in the aquarium']])
    const [read] = await turn([call('read', { url: 'history://private%3Aalice' })], { channel: 'room' })
    expect(read).to.match(/^forbidden: private:alice is another conversation/)
    const fromPrivate = await search('swordfish', { user: 'alice' })
    expect(fromPrivate.map(x => x.text)).to.deep.equal(['my locker code is swordfish'])
    await h.stop()

    // cross mode searches every channel of its one conversation, but a private chat only from there (SPEC §22)
    h = await Harness.start({ profile: { mode: 'cross' } })
    h.server.script({ toolCalls: [call('finish', {})] })
    await say(undefined, [['alice', 'my locker code is swordfish']])
    await say('room', [['bob', 'a swordfish in the aquarium']])
    expect((await search('swordfish locker', { channel: 'room' })).map(x => x.text)).to.deep.equal(['a swordfish in the aquarium'])
    const all = await search('swordfish locker', { user: 'alice' })
    expect(all.map(x => x.text)).to.deep.equal(['my locker code is swordfish', 'a swordfish in the aquarium'])
    const [page] = await turn([call('read', { url: all[0].url })], { user: 'alice' })
    expect(page).to.include('[private:alice] alice (alice)')
    const [fromRoom] = await turn([call('read', { url: all[0].url })], { channel: 'room' })
    expect(fromRoom).to.include('[group:room] bob (bob)').and.not.include('locker code')
  })

  it('finds lines of the notes in local://memory/, with line URLs', async () => {
    h = await Harness.start()
    await mkdir(join(home(), 'local', 'memory', 'people'), { recursive: true })
    await writeFile(join(home(), 'local', 'memory', 'people', 'bob.md'), 'Bob (u-bob)\nlikes jazz and strong coffee\nbirthday in May\n')
    await say('room', [['carol', 'jazz is overrated']])
    const hits = await search('jazz coffee')
    expect(hits[0]).to.deep.include({ url: 'local://memory/people/bob.md:2', id: null, who: null, text: 'likes jazz and strong coffee' })
    const message = hits.find(x => x.url.startsWith('history://'))!
    expect(message).to.deep.include({ url: `history://group%3Aroom/${message.id}`, text: 'jazz is overrated' })
    // a note the mind writes is found at once
    const [written] = await turn([call('write', { url: 'local://memory/todo.md', content: 'remind Carol about the saxophone\n' })], { channel: 'room' })
    expect(written.ok).to.equal(true)
    expect((await search('saxophone')).map(x => x.url)).to.deep.equal(['local://memory/todo.md:1'])
  })

  it('read of a hit\'s URL shows the conversation around it, paged like any text', async () => {
    h = await Harness.start()
    const lines: [string, string][] = []
    for (let i = 1; i <= 40; i++) lines.push([i % 2 ? 'alice' : 'bob', i === 25 ? 'the spare key is under the blue flowerpot' : `chatter number ${i}`])
    await say('room', lines)
    const [hit] = await search('spare key')
    expect(hit.url).to.equal(`history://group%3Aroom/${hit.id}`)
    const [page] = await turn([call('read', { url: hit.url })], { channel: 'room' })
    const rows: string[] = page.split('\n')
    // 40 messages, the one that woke the search, the one that woke this read: 15th to 35th shown;
    // the pages next to it are around the 4th and the 42nd
    const idx = await (await recall()).index('group:room')
    const idAt = (n: number) => idx.docs(n, n + 1)[0].id
    expect(rows[0]).to.equal(`[conversation group:room: 21 of its 42 messages; earlier: history://group%3Aroom/${idAt(3)}; later: history://group%3Aroom/${idAt(41)}]`)
    expect(rows[1]).to.equal(`[${formatTime(idx.docs(14, 15)[0].at)}] alice (alice) #${idAt(14)}: chatter number 15`)
    expect(rows.find(r => r.startsWith('→ '))).to.match(new RegExp(`^→ \\[.*\\] alice \\(alice\\) #${hit.id}: the spare key is under the blue flowerpot$`))
    expect(rows.filter(r => /^\[\d{4}/.test(r)).length).to.equal(20)
    // a page longer than the budget ends with the exact read call for the rest (a message is cut at 4,000 characters)
    await say('room', Array.from({ length: 9 }, (_, i): [string, string] => ['carol', `${i} `.repeat(3000)]))
    const [long] = await turn([call('read', { url: `history://group%3Aroom/${idAt(46)}` })], { channel: 'room' })
    expect(long).to.match(/\[truncated; to continue, call read\(\{url: "artifact:\/\/read\/[^"]+\?offset=\d+"\}\)\]$/)
    // URLs of before (message numbers, ranges) are told apart from a page, with the form to use
    const [meta, range, missing] = await turn([
      call('read', { url: `${hit.url}?view=meta` }), call('read', { url: 'history://group%3Aroom/43-60' }), call('read', { url: 'history://group%3Aroom/987654321' }),
    ], { channel: 'room' })
    expect(meta.meta).to.deep.include({ scheme: 'history', mediaType: 'text/plain' })
    const form = 'a history:// URL names a message by the #id its line shows: history://group%3Aroom/<message id> (history://group%3Aroom alone: the latest messages)'
    expect(range).to.equal(`invalid_url: "history://group%3Aroom/43-60": ranges of messages are no longer read; ${form}`)
    expect(missing).to.equal(`not_found: conversation group:room has no message #987654321; ${form}`)
  })

  it('the index survives a restart and is not made again; the mind\'s own messages are found too', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('send_message', { messages: ['I will bring the lemonade on Sunday'] })] })
    await h.client('alice', 'room').receive('<at id="514"/> what will you bring?')
    await h.until(() => h.sent.length === 1, 'the answer')
    await h.settled()
    await say('room', [['bob', 'the tent is in my garage']])
    expect((await search('lemonade'))[0]).to.deep.include({ who: '514 (you)', text: 'I will bring the lemonade on Sunday', id: 'sent-0' })
    // a crash lost the index's last two messages: the history's tail brings them back
    await h.reload({ ...h.config, profiles: [] })
    const log = join(home(), 'recall', 'group%3Aroom', 'live.log')
    const kept = (await readFile(log, 'utf8')).split('\n').filter(Boolean)
    // alice's question, the answer, bob's tent, the message that woke the search
    expect(kept.length).to.equal(4)
    await writeFile(log, kept.slice(0, 2).map(l => l + '\n').join('') + kept[2].slice(0, 10))
    await h.reload()
    await say('room', [['carol', 'after the restart: marshmallows']])
    expect((await search('tent')).map(x => x.text)).to.deep.equal(['the tent is in my garage'])
    const [marsh] = await search('marshmallows')
    expect(marsh.url).to.equal(`history://group%3Aroom/${marsh.id}`)
    // the index caught up in order: the page around it marks it, after bob's tent and the search's wake
    const [around] = await turn([call('read', { url: marsh.url })], { channel: 'room' })
    const rows: string[] = around.split('\n')
    const at = rows.findIndex(r => r.startsWith('→ '))
    expect(rows.slice(at - 2, at + 1).map(r => r.replace(/^.*? #\S+: /, ''))).to.deep.equal(['the tent is in my garage', '@514 hey', 'after the restart: marshmallows'])
    expect(h.logs.map(l => l.text).filter(t => t.includes('indexing the history'))).to.deep.equal([])
  })

  it('with many channels, a closed index takes messages in its log and indexes them when searched', async () => {
    h = await Harness.start()
    // 20 groups: more than the 16 indexes a runtime keeps open
    for (let g = 1; g <= 20; g++) await say(`g${g}`, [['alice', `group ${g} says hello`]])
    await say('g1', [['bob', 'the blue umbrella is mine']])
    const log = await readFile(join(home(), 'recall', 'group%3Ag1', 'live.log'), 'utf8')
    expect(log.split('\n').filter(Boolean).map(l => l.split('\t')[0])).to.deep.equal(['0', ''])
    const [umbrella] = await search('umbrella', { channel: 'g1' })
    expect(umbrella).to.deep.include({ url: `history://group%3Ag1/${umbrella.id}`, text: 'the blue umbrella is mine' })
    expect((await search('hello', { channel: 'g1' })).map(x => x.text)).to.deep.equal(['group 1 says hello'])
  })

  it('a missing or unreadable index is made again from the history', async () => {
    const saved = { ...DEFAULT_TUNING }
    // four messages to a segment, four segments merge: a few messages make files of every kind
    Object.assign(DEFAULT_TUNING, { liveMax: 4, mergeFactor: 4 })
    try {
      h = await Harness.start()
      const lines: [string, string][] = []
      for (let i = 1; i <= 22; i++) lines.push(['alice', i === 3 ? 'the treasure map is in the attic' : `filler ${i}`])
      await say('room', lines)
      const [treasure] = await search('treasure')
      // the same URL after each rebuild
      const url = `history://group%3Aroom/${treasure.id}`
      expect(treasure.url).to.equal(url)
      const dir = join(home(), 'recall', 'group%3Aroom')
      await (await recall()).idle()
      expect((await readdir(dir)).filter(f => f.endsWith('.seg')).length).to.be.greaterThan(1)
      // a segment cut short; listed once the index is closed (a stopping index may still merge)
      await h.reload({ ...h.config, profiles: [] })
      const files = await readdir(dir)
      await truncate(join(dir, files.find(f => f.endsWith('.seg'))!), 100)
      await h.reload()
      expect((await search('treasure')).map(x => x.url)).to.deep.equal([url])
      expect(h.warnings().some(w => /recall: the index of group:room is unreadable .* it is made again from the history/.test(w))).to.equal(true)
      // a manifest that is not JSON
      await h.reload({ ...h.config, profiles: [] })
      await writeFile(join(dir, 'manifest.json'), '{not json')
      await h.reload()
      expect((await search('treasure')).map(x => x.url)).to.deep.equal([url])
      // no index at all
      await h.reload({ ...h.config, profiles: [] })
      await rm(join(home(), 'recall'), { recursive: true })
      await h.reload()
      const again = await search('treasure map')
      expect(again.map(x => x.url)).to.deep.equal([url])
    } finally {
      Object.assign(DEFAULT_TUNING, saved)
    }
  })

  it('follows storage: database, rebuilding from the table', async () => {
    h = await Harness.start({ storage: 'database', database: memoryDatabase() })
    await say('room', [['alice', 'the wifi password is on the fridge'], ['bob', 'thanks']])
    expect((await search('wifi password')).map(x => x.who)).to.deep.equal(['alice'])
    await h.reload({ ...h.config, profiles: [] })
    await rm(join(home(), 'recall'), { recursive: true })
    await h.reload()
    expect((await search('fridge')).map(x => x.text)).to.deep.equal(['the wifi password is on the fridge'])
    expect(await readdir(join(home(), 'conversations')).catch((): string[] => [])).to.deep.equal([])
  })

  describe('with an embeddings model', function () {
    /** fixed vectors: "pets" [1,0,0], "work" [0,1,0]; any other text points elsewhere ([0,0,1]) */
    const VECTORS: Record<string, number[]> = {
      dog: [1, 0, 0], 'I adopted a golden retriever named Maple': [1, 0, 0],
      report: [0, 1, 0], 'the quarterly report': [0, 1, 0], 'lunch? the boss wants numbers': [0, 0.95, 0.3],
      'report report report, the report is due': [0, 0.8, 0.6], 'the report is due friday': [0, 1, 0],
    }
    const vectorOf = (t: string) => VECTORS[t] ?? [0, 0, 1]

    async function start(failing = false) {
      embeddings = await FakeEmbeddings.start(vectorOf)
      embeddings.failing = failing
      h = await Harness.start({
        extraModels: [{ id: 'emb', baseURL: embeddings.baseURL, apiKey: 'sk-emb', model: 'fake-embed', maxRetries: 0, timeoutMs: 5000 }],
        profile: { recall: { enabled: true, embeddingModel: 'emb' } },
      })
    }

    it('fuses the nearest vectors with the keyword ranking', async () => {
      await start()
      await say('room', [
        ['alice', 'I adopted a golden retriever named Maple'],
        ['bob', 'report report report, the report is due'],
        ['carol', 'the quarterly report'],
        ['dave', 'lunch? the boss wants numbers'],
      ])
      await (await recall()).idle()
      expect(embeddings!.requests.flatMap(r => r.input)).to.include('I adopted a golden retriever named Maple')
      expect(embeddings!.requests.every(r => r.model === 'fake-embed')).to.equal(true)
      // no keyword of "dog" is in any message: the vectors find it (the other messages point elsewhere)
      expect((await search('dog')).map(x => x.who)).to.deep.equal(['alice'])
      // by keywords bob's message comes first (report four times), then carol's; by vectors carol's,
      // then dave's, then bob's: fused, carol's passes bob's, and dave's comes in after them
      const index = await (await recall()).index('group:room')
      expect(index.search(queryTerms('report'), { limit: 10 }).hits.map(h => index.docs(h.n, h.n + 1)[0].who)).to.deep.equal(['bob', 'carol'])
      expect((await search('report')).map(x => x.who)).to.deep.equal(['carol', 'bob', 'dave'])
    })

    it('a failing embeddings server leaves keyword search, with one warning', async () => {
      await start(true)
      await say('room', [['alice', 'the report is due friday'], ['bob', 'my puppy chewed the report']])
      await (await recall()).idle()
      expect((await search('report')).map(x => x.who)).to.deep.equal(['bob', 'alice'])
      expect(await search('dog')).to.deep.equal([])
      const warned = h.warnings().filter(w => w.includes('embeddings model "emb" failed'))
      expect(warned.length).to.equal(1)
      expect(warned[0]).to.include('searching by keywords only')
    })
  })
})
