// Issue 15 end to end: storage: database through Koishi (plugin-mock, the fake model server), a
// database that is missing at first, and kotodama.migrate moving one runtime's history from files
// to the database and back.
import { expect } from 'chai'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import memory from '@koishijs/plugin-database-memory'
import mock from '@koishijs/plugin-mock'
import { App, Logger } from 'koishi'
import * as kotodama from '../../src'
import { Harness, call } from '../support/harness'
import { memoryDatabase, sqliteDatabase } from '../support/databases'
import { requestText } from '../support/faults'
import { runtimeHome } from '../../src/runtime/runtime'
import { HISTORY_TABLE } from '../../src/koishi/history-table'

const ROOM = 'group:room1'

async function rows(h: Harness, o: { bot?: string; live?: boolean } = {}) {
  const query: any = { profile: 'neko', bot: o.bot ?? 'mock:514', conversation: ROOM }
  if (o.live !== undefined) query.aside = o.live ? 0 : { $gt: 0 }
  return (await h.app.database.get(HISTORY_TABLE, query)).sort((a, b) => a.seq - b.seq)
}

const conversationFiles = async (h: Harness) => (await readdir(join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'conversations')).catch((): string[] => [])).sort()

describe('storage: database, end to end', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('a conversation\'s turns are rows of the table and survive a plugin reload; no history file is written', async () => {
    h = await Harness.start({ storage: 'database', database: memoryDatabase() })
    h.server.script({ toolCalls: [call('send_message', { messages: ['noted: pineapple'] })] })
    await h.client('alice', 'room1').receive('<at id="514"/> remember the word pineapple')
    await h.until(() => h.sent.length === 1, 'the answer')
    await h.settled()
    const stored = (await rows(h, { live: true })).map(r => r.entry).join('\n')
    expect(stored).to.include('remember the word pineapple').and.include('noted: pineapple')
    expect((await rows(h)).map(r => r.seq)).to.deep.equal(Array.from({ length: (await rows(h)).length }, (_, i) => i + 1))
    await h.reload()
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob', 'room1').receive('<at id="514"/> what was the word?')
    await h.server.waitForRequests(2)
    const seen = requestText(h.server.requests[1])
    expect(seen).to.include('remember the word pineapple').and.include('noted: pineapple').and.include('what was the word?')
    await h.settled()
    expect(await conversationFiles(h)).to.deep.equal([])
    expect(h.logs.filter(l => l.level === 'error').map(l => l.text)).to.deep.equal([])
  })

  it('kotodama.reset sets the rows aside; the next turn starts without them', async () => {
    h = await Harness.start({ storage: 'database', database: memoryDatabase() })
    await h.app.mock.initUser('admin', 3)
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive('<at id="514"/> remember the word pineapple')
    await h.server.waitForRequests(1)
    await h.settled()
    const before = (await rows(h, { live: true })).length
    const [reply] = await h.client('admin', 'room1').receive('kotodama.reset')
    expect(reply).to.match(/Forgot conversation group:room1 of profile neko/)
    expect(await rows(h, { live: true })).to.deep.equal([])
    expect(await rows(h, { live: false })).to.have.length(before)
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob', 'room1').receive('<at id="514"/> what was the word?')
    await h.server.waitForRequests(2)
    await h.settled()
    expect(requestText(h.server.requests[1])).to.not.include('pineapple')
    const seqs = (await rows(h)).map(r => r.seq)
    expect(new Set(seqs).size, 'numbers are never reused').to.equal(seqs.length)
  })

  it('on SQLite: the history survives a restart of the whole Koishi app', async function () {
    const dir = await mkdtemp(join(tmpdir(), 'kotodama-e2e-sqlite-'))
    try {
      const db = sqliteDatabase(join(dir, 'koishi.db'))
      if (typeof db === 'string') {
        console.log(`      (skipped: ${db})`)
        this.skip()
      }
      h = await Harness.start({ storage: 'database', database: db })
      h.server.script({ toolCalls: [call('send_message', { messages: ['noted: pineapple'] })] })
      await h.client('alice', 'room1').receive('<at id="514"/> remember the word pineapple')
      await h.until(() => h.sent.length === 1, 'the answer')
      await h.settled()
      await h.stop()
      h = await Harness.start({ storage: 'database', database: db })
      h.server.script({ toolCalls: [call('finish', {})] })
      await h.client('bob', 'room1').receive('<at id="514"/> what was the word?')
      await h.server.waitForRequests(1)
      await h.settled()
      expect(requestText(h.server.requests[0])).to.include('remember the word pineapple').and.include('noted: pineapple')
    } finally {
      await h?.stop()
      h = undefined
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('a database plugin started with the app before kotodama: no spurious error at boot (issue 21)', async () => {
    const logs: { type: string; content: string }[] = []
    const target: Logger.Target = { colors: 0, record: r => { logs.push(r) } }
    Logger.targets.push(target)
    const dataDir = await mkdtemp(join(tmpdir(), 'kotodama-boot-'))
    const app = new App()
    try {
      // as `koishi start` boots: every plugin is added, then the app starts them together
      app.plugin(memory)
      app.plugin(mock)
      app.plugin(kotodama, <any>{ dataDir, storage: 'database', models: [{ id: 'main', baseURL: 'http://127.0.0.1:9/v1', model: 'm' }], profiles: [{ id: 'p', model: 'main', claims: [{ bot: '*', channels: ['*'] }] }] })
      await app.start()
      await new Promise(r => setTimeout(r, 3500))
      expect(logs.filter(l => l.type === 'error').map(l => l.content)).to.deep.equal([])
    } finally {
      Logger.targets.splice(Logger.targets.indexOf(target), 1)
      await app.stop().catch(() => {})
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('without a database service nothing starts and a clear error is logged; profiles start when one is loaded', async () => {
    h = await Harness.start({ storage: 'database' })
    await h.client('alice', 'room1').receive('<at id="514"/> is anyone there?')
    await h.idle(100)
    expect(h.server.requests).to.have.length(0)
    const errors = h.logs.filter(l => l.level === 'error').map(l => l.text)
    expect(errors.some(t => t.includes('storage is "database", but Koishi has no database service')), JSON.stringify(errors)).to.equal(true)
    expect(await conversationFiles(h)).to.deep.equal([])
    h.app.plugin(memory)
    await h.idle(50)
    h.server.script({ toolCalls: [call('send_message', { messages: ['here now'] })] })
    await h.client('bob', 'room1').receive('<at id="514"/> and now?')
    await h.until(() => h.sent.length === 1, 'the answer once the database is there')
    await h.settled()
    expect((await rows(h, { live: true })).map(r => r.entry).join('\n')).to.include('and now?')
  })
})

describe('kotodama.migrate', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  async function admin(text: string): Promise<string> {
    const [reply] = await h.client('admin', 'room1').receive(text)
    return reply ?? ''
  }

  it('moves one runtime\'s history from files to the database and back; the conversation goes on after each move', async () => {
    h = await Harness.start({ database: memoryDatabase() })
    await h.app.mock.initUser('admin', 4)
    h.server.script({ toolCalls: [call('send_message', { messages: ['noted: pineapple'] })] })
    await h.client('alice', 'room1').receive('<at id="514"/> remember the word pineapple')
    await h.until(() => h.sent.length === 1, 'the first answer')
    await h.settled()
    expect(await conversationFiles(h)).to.deep.equal(['group%3Aroom1.jsonl'])

    const toDb = await admin('kotodama.migrate database')
    expect(toDb).to.match(/Moved 1 conversation\(s\), \d+ entries of profile neko on mock:514 to database/)
    expect(toDb).to.include('set storage: database')
    const files = await conversationFiles(h)
    expect(files).to.have.length(1)
    expect(files[0]).to.match(/^group%3Aroom1\.migrated-\d+\.jsonl$/)
    const moved = Number(/(\d+) entries/.exec(toDb)[1])
    expect(await rows(h, { live: true })).to.have.length(moved)

    h.server.script({ toolCalls: [call('send_message', { messages: ['it was pineapple'] })] })
    await h.client('bob', 'room1').receive('<at id="514"/> what was the word?')
    await h.until(() => h.sent.length === 2, 'the answer on the database')
    await h.settled()
    expect(requestText(h.server.requests[1])).to.include('remember the word pineapple')
    expect((await conversationFiles(h)).filter(f => f.endsWith('room1.jsonl'))).to.deep.equal([])
    const onDb = (await rows(h, { live: true })).length
    expect(onDb).to.be.greaterThan(moved)

    const back = await admin('kotodama.migrate files')
    expect(back).to.match(new RegExp(`Moved 1 conversation\\(s\\), ${onDb} entries of profile neko on mock:514 to files`))
    expect(back).to.not.include('set storage')
    expect(await rows(h, { live: true })).to.deep.equal([])
    expect(await rows(h, { live: false })).to.have.length(onDb)

    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('carol', 'room1').receive('<at id="514"/> still there?')
    await h.server.waitForRequests(3)
    await h.settled()
    const seen = requestText(h.server.requests[2])
    for (const t of ['remember the word pineapple', 'what was the word?', 'it was pineapple', 'still there?']) expect(seen).to.include(t)
    expect(await conversationFiles(h)).to.include('group%3Aroom1.jsonl')
    expect(h.logs.filter(l => l.level === 'error').map(l => l.text)).to.deep.equal([])
  })

  it('refuses while the runtime is in a turn, and names the storages it knows', async () => {
    h = await Harness.start({ database: memoryDatabase() })
    await h.app.mock.initUser('admin', 4)
    h.server.script({ delayMs: 2000, toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive('<at id="514"/> think slowly')
    await h.server.waitForRequests(1)
    expect(await admin('kotodama.migrate database')).to.match(/Profile neko on mock:514 is in a turn/)
    await h.settled()
    expect(await admin('kotodama.migrate elsewhere')).to.include('Name the target storage')
    expect(await conversationFiles(h)).to.deep.equal(['group%3Aroom1.jsonl'])
  })

  it('names a profile that does not exist, and says when there is nothing to move, in both locales', async () => {
    h = await Harness.start({ database: memoryDatabase() })
    await h.app.mock.initUser('admin', 4)
    expect(await admin('kotodama.migrate database -p ghost')).to.equal('No profile has the id ghost (profiles: neko).')
    expect(await admin('kotodama.reset -p ghost')).to.equal('No profile has the id ghost (profiles: neko).')
    const nothing = await admin('kotodama.migrate database')
    expect(nothing).to.match(/^Nothing to move: profile neko on mock:514 has no history in files\.\n/)
    expect(nothing).to.not.include('moved aside')
    expect(await admin('kotodama.migrate files')).to.equal('Nothing to move: profile neko on mock:514 has no history in database.')
    const { id } = await h.app.database.getUser('mock', 'admin')
    await h.app.database.set('user', { id }, { locales: ['zh-CN'] } as any)
    expect(await admin('kotodama.migrate database -p ghost')).to.equal('没有 id 为 ghost 的 profile（现有：neko）。')
    expect(await admin('kotodama.migrate files')).to.equal('没有需要迁移的内容：profile neko 在 mock:514 上没有存放在 database 的历史。')
  })

  it('is for admins of authority 4', async () => {
    h = await Harness.start({ database: memoryDatabase() })
    await h.app.mock.initUser('mod', 3)
    const [reply] = await h.client('mod', 'room1').receive('kotodama.migrate database')
    expect(reply ?? '').to.not.match(/Moved/)
  })

  it('says so when Koishi has no database', async () => {
    h = await Harness.start({ trust: { owners: ['mock:admin'] } })
    expect(await admin('kotodama.migrate database')).to.include('Koishi has no database service')
  })
})
