// Issue 15: several Koishi instances share one SQL server. Two apps on one MariaDB (a server the
// test starts itself) serve two different bots and keep their histories apart; a bot that moves
// to another instance keeps its conversations. Skipped, saying why, without MariaDB binaries.
import { expect } from 'chai'
import { Harness, call } from '../support/harness'
import { mysqlDatabase } from '../support/databases'
import { requestText } from '../support/faults'
import { startMariaDB, type MariaDB } from '../support/mariadb'
import { HISTORY_TABLE } from '../../src/koishi/history-table'

describe('two Koishi apps sharing one MariaDB', function () {
  this.timeout(120_000)
  let server: MariaDB | string
  const apps: Harness[] = []
  before(async function () {
    server = await startMariaDB(['kotodama_shared'])
    if (typeof server === 'string') {
      console.log(`      (skipped: ${server})`)
      this.skip()
    }
  })
  after(async () => {
    for (const h of apps.splice(0)) await h.stop().catch(() => {})
    if (server && typeof server !== 'string') await server.stop()
  })

  const start = async (selfId: string) => {
    const h = await Harness.start({ storage: 'database', selfId, database: mysqlDatabase({ port: (server as MariaDB).port, database: 'kotodama_shared' }) })
    apps.push(h)
    return h
  }

  const entries = async (h: Harness, bot: string) =>
    (await h.app.database.get(HISTORY_TABLE, { profile: 'neko', bot, conversation: 'group:room1', aside: 0 })).map(r => r.entry).join('\n')

  it('serve two different bots, keep their histories apart, and a bot keeps its history on another instance', async () => {
    const a = await start('514')
    a.server.script({ toolCalls: [call('send_message', { messages: ['noted: apple'] })] })
    await a.client('alice', 'room1').receive('<at id="514"/> the password is apple')
    await a.until(() => a.sent.length === 1, 'the answer of app A')
    await a.settled()

    const b = await start('777')
    b.server.script({ toolCalls: [call('send_message', { messages: ['noted: banana'] })] })
    await b.client('bob', 'room1').receive('<at id="777"/> the password is banana')
    await b.until(() => b.sent.length === 1, 'the answer of app B')
    await b.settled()
    expect(requestText(b.server.requests[0])).to.include('banana').and.not.include('apple')

    // each app sees both bots' rows in the shared table, each bot only its own
    const [of514, of777] = [await entries(b, 'mock:514'), await entries(a, 'mock:777')]
    expect(of514).to.include('the password is apple').and.include('noted: apple').and.not.include('banana')
    expect(of777).to.include('the password is banana').and.include('noted: banana').and.not.include('apple')

    a.server.script({ toolCalls: [call('finish', {})] })
    await a.client('alice', 'room1').receive('<at id="514"/> which password did I give you?')
    await a.server.waitForRequests(2)
    await a.settled()
    expect(requestText(a.server.requests[1])).to.include('apple').and.not.include('banana')

    // bot 514 moves: app A stops, a third app (its own data folder) serves it from the shared table
    await apps.shift().stop()
    const c = await start('514')
    // before any message, app C finds both bots' histories in the shared table (its console lists them, not running)
    const listed = (await c.app.kotodama.stored()).map(s => s.bot).sort()
    expect(listed, JSON.stringify(c.logs.filter(l => l.level !== 'debug').map(l => l.text))).to.deep.equal(['mock:514', 'mock:777'])
    expect(await c.app.kotodama.list()).to.deep.equal([])
    c.server.script({ toolCalls: [call('finish', {})] })
    await c.client('carol', 'room1').receive('<at id="514"/> do you still remember?')
    await c.server.waitForRequests(1)
    await c.settled()
    const seen = requestText(c.server.requests[0])
    for (const t of ['the password is apple', 'noted: apple', 'which password did I give you?', 'do you still remember?']) expect(seen).to.include(t)
    expect(seen).to.not.include('banana')
    expect([...a.logs, ...b.logs, ...c.logs].filter(l => l.level === 'error').map(l => l.text)).to.deep.equal([])
  })
})
