// Budgets that hold (SPEC §22 "What it may cost"), through Koishi + plugin-mock, the real AI SDK
// provider and the fake OpenAI server whose `usage` sets each request's cost: the price below makes
// 1000 prompt tokens cost 1. The fake server counts the requests, so "the next step is not
// requested" is a count, not a wait.
import { expect } from 'chai'
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import * as kotodama from '../../src'
import { homesFree } from '../../src/runtime/home-lock'
import { Harness, call } from '../support/harness'
import { fakeClock } from '../support/fake-clock'
import { FakeOpenAI } from '../support/fake-openai'
import { koishiBudgetTable } from '../../src/koishi/budget-table'
import { memoryDatabase } from '../support/databases'
import { disposeAndWait } from '../support/faults'

const PRICE = { input: 1000, output: 1000 }
/** a step that costs `cost` (1000 prompt tokens cost 1) */
const costing = (cost: number) => ({ usage: { prompt_tokens: Math.round(cost * 1000), completion_tokens: 0 } })
const say = (text: string, cost = 1, more = true) => ({ toolCalls: [call('send_message', { messages: [text], ...more ? { continue: true } : {} })], ...costing(cost) })
const mention = (text: string) => `<at id="514"/> ${text}`

/** The text of the one day file in `dir` once it is there (an atomic write's temporary file beside it is not it). */
async function dayFile(dir: string): Promise<string> {
  for (let i = 0; ; i++) {
    const name = (await readdir(dir).catch((): string[] => [])).find(n => /^\d{4}-\d\d-\d\d\.json$/.test(n))
    if (name) return readFile(join(dir, name), 'utf8')
    if (i > 400) throw new Error('no day file in ' + dir)
    await new Promise(r => setTimeout(r, 10))
  }
}

describe('budgets: the gate before each request, the book behind it (SPEC §22)', function () {
  const installClock = fakeClock()
  let h: Harness
  let cheap: FakeOpenAI | undefined
  afterEach(async () => {
    await h?.stop()
    await cheap?.close()
    cheap = undefined
  })

  const start = (budgets: any, more: any = {}) => Harness.start({ model: { price: PRICE }, budgets, trust: { owners: ['mock:carol'] }, ...more })
  const texts = () => h.sent.map(s => s.content)

  /** alice's turn costs 1 in room1; then the plugin stops, its service's stop (which writes the day file) finished, not only the homes' locks */
  async function spendOneThenStop(): Promise<void> {
    h.server.script(say('one', 1, false))
    await h.client('alice', 'room1').receive(mention('first'))
    await h.server.waitForRequests(1)
    await h.settled()
    await disposeAndWait(h)
    await homesFree(h.dataDir)
  }

  it('a turn that crosses perChannelDay: its step\'s answer is sent, the next step is never requested; another group is not held', async () => {
    h = await start({ perChannelDay: 1.5, onExceeded: 'silent' })
    // a third step would be asked for 'three'; past the budget it never is
    h.server.script(say('one'), say('two'))
    h.server.fallback(say('three'))
    await h.client('alice', 'room1').receive(mention('talk a lot'))
    await h.server.waitForRequests(2)
    await h.settled()
    expect(texts()).to.deep.equal(['one', 'two'])
    expect(h.server.requests).to.have.length(2)
    expect(h.logs.map(l => l.text).join('\n')).to.match(/budget perChannelDay crossed: channel:neko\/mock:514\/group:room1 spent 2\.00 of 1\.50/)

    // room1 stays held; room2 is another conversation with its own budget
    h.server.fallback(undefined)
    h.server.script(say('room2 answer', 0.1, false))
    await h.client('alice', 'room1').receive(mention('still there?'))
    await h.client('bob', 'room2').receive(mention('hello'))
    await h.server.waitForRequests(3)
    await h.settled()
    expect(h.server.requests).to.have.length(3)
    expect(JSON.stringify(h.server.requests[2].body.messages)).to.include('hello').and.not.include('still there?')
    expect(texts()).to.deep.equal(['one', 'two', 'room2 answer'])
  })

  it('onExceeded fallback: past the day budget the same turn goes on with the fallback model, counted at its price', async () => {
    cheap = await FakeOpenAI.start()
    h = await start({ day: 1, onExceeded: 'fallback', fallback: 'cheap' }, {
      extraModels: [{ id: 'cheap', baseURL: cheap.baseURL, apiKey: 'sk-test', model: 'cheap-model', maxRetries: 0, timeoutMs: 10000, price: PRICE }],
    })
    h.server.script(say('one'))
    cheap.script(say('two'), say('three', 1, false))
    await h.client('alice', 'room1').receive(mention('go on'))
    await cheap.waitForRequests(2)
    await h.settled()
    expect(h.server.requests.map(r => r.body.model)).to.deep.equal(['fake-model'])
    expect(cheap.requests.map(r => r.body.model)).to.deep.equal(['cheap-model', 'cheap-model'])
    expect(texts()).to.deep.equal(['one', 'two', 'three'])
    const report = await h.app.kotodama.budgetReport()
    expect(report.lines.find(l => l.name === 'day')!.spent).to.equal(3)
  })

  it('onExceeded reply: the reply is sent once in that conversation that day, again the next day; at midnight the budget starts over', async () => {
    const clock = installClock({ toFake: ['Date'], now: Date.UTC(2026, 2, 10, 10, 0) })
    h = await start({ perChannelDay: 0.5, onExceeded: 'reply', reply: 'My budget for today is spent.', timezone: 'UTC' })
    h.server.script(say('hi'), say('never'))
    await h.client('alice', 'room1').receive(mention('hello'))
    await h.server.waitForRequests(1)
    await h.settled()
    expect(texts()).to.deep.equal(['hi', 'My budget for today is spent.'])

    await h.client('bob', 'room1').receive(mention('and me?'))
    await h.settled()
    expect(h.server.requests).to.have.length(1)
    expect(texts()).to.deep.equal(['hi', 'My budget for today is spent.'])

    clock.setSystemTime(Date.UTC(2026, 2, 11, 0, 0, 1))
    h.server.reset()
    h.server.script(say('good morning'))
    await h.client('alice', 'room1').receive(mention('morning'))
    await h.server.waitForRequests(1)
    await h.settled()
    expect(texts()).to.deep.equal(['hi', 'My budget for today is spent.', 'good morning', 'My budget for today is spent.'])
    expect(h.server.requests).to.have.length(1)
    // the reply is stored as what the mind said: the next turn's request shows it
    const file = join(h.dataDir, 'neko', 'mock', '514', 'conversations')
    const names = await readdir(file)
    const history = await readFile(join(file, names.find(n => n.includes('room1'))!), 'utf8')
    expect(history.split('My budget for today is spent.').length - 1).to.equal(2)
  })

  it('a turn an owner woke is not held by perChannelDay or perUserDay, but is by day', async () => {
    h = await start({ perChannelDay: 0.5, perUserDay: 0.5, day: 3, onExceeded: 'silent' })
    h.server.script(say('one'), say('two'), say('three'), say('four'))
    await h.client('carol', 'room1').receive(mention('owner here, go on'))
    await h.server.waitForRequests(3)
    await h.settled()
    expect(texts()).to.deep.equal(['one', 'two', 'three'])
    expect(h.server.requests).to.have.length(3)
  })

  it('the judge pays with the authors it judges: in a held group an owner\'s keyword is still judged and answered, a member\'s is not', async () => {
    const judge = await FakeOpenAI.start()
    cheap = judge
    h = await start({ perChannelDay: 0.5, onExceeded: 'silent' }, {
      profile: { wake: { keywords: ['pizza'], judge: 'small' } },
      extraModels: [{ id: 'small', baseURL: judge.baseURL, apiKey: 'sk-test-judge', model: 'tiny', maxRetries: 0, timeoutMs: 5000, price: PRICE }],
    })
    h.server.script(say('spent', 1, false))
    await h.client('alice', 'room1').receive(mention('hello'))
    await h.server.waitForRequests(1)
    await h.settled()
    // room1 is past perChannelDay now: a member's keyword is held before the judge is asked
    await h.client('alice', 'room1').receive('who wants pizza')
    await h.settled()
    expect(judge.requests).to.have.length(0)
    // the owner's is judged (and the judge says yes), then answered
    judge.script({ content: 'yes' })
    h.server.script(say('pizza for the owner', 0.1, false))
    await h.client('carol', 'room1').receive('pizza tonight?')
    await judge.waitForRequests(1)
    await h.server.waitForRequests(2)
    await h.settled()
    expect(texts()).to.deep.equal(['spent', 'pizza for the owner'])
  })

  it('perUserDay: a two-author turn\'s cost is shared equally; kotodama.status prints each budget and who spent most', async () => {
    h = await start({ perUserDay: 10, perChannelDay: 20 }, { profile: { timing: { debounceMs: 1000, debounceMaxMs: 3000 } } })
    h.server.script(say('hello both', 3, false))
    await h.client('alice', 'room1').receive(mention('hi'))
    await h.client('bob', 'room1').receive(mention('hi too'))
    await h.server.waitForRequests(1)
    await h.settled()
    const [status] = await h.client('carol').receive('kotodama.status')
    expect(status, status).to.match(/\nbudgets today \(\d{4}-\d\d-\d\d\):\n  day: spent 3\.00 \(no limit\)\n/)
    expect(status, status).to.include('  perChannelDay: spent 3.00 of 20.00\n    channel:neko/mock:514/group:room1: 3.00\n')
    expect(status, status).to.include('  perUserDay: spent 1.50 of 10.00\n')
    // each person by the name they wrote under, and their key
    expect(status, status).to.include('    alice (user:mock:alice): 1.50').and.include('    bob (user:mock:bob): 1.50')
  })

  it('kotodama.status shows the budgets before any runtime runs, with what earlier runs spent today', async () => {
    h = await start({ perChannelDay: 5 })
    const [fresh] = await h.client('carol').receive('kotodama.status')
    expect(fresh, fresh).to.include('No runtime has started yet.').and.include('  perChannelDay: spent 0 of 5.00')
    await spendOneThenStop()
    h.fork = h.app.plugin(kotodama, h.config)
    await h.idle()
    // no message since the reload: no runtime runs, the day file still says what was spent
    expect(await h.app.kotodama.list()).to.deep.equal([])
    const [after] = await h.client('carol').receive('kotodama.status')
    expect(after, after).to.include('  perChannelDay: spent 1.00 of 5.00\n    channel:neko/mock:514/group:room1: 1.00')
  })

  it('a restart keeps today\'s spending (the file store)', async () => {
    h = await start({ perChannelDay: 1.5, onExceeded: 'silent' })
    await spendOneThenStop()
    const dir = join(h.dataDir, 'budgets')
    const rows = JSON.parse(await dayFile(dir))
    expect(rows.find((r: any) => r.key === 'channel:neko/mock:514/group:room1')).to.include({ scope: 'channel', spent: 1 })

    h.fork = h.app.plugin(kotodama, h.config)
    await h.idle()
    h.server.script(say('two'), say('three'))
    await h.client('alice', 'room1').receive(mention('again'))
    await h.server.waitForRequests(2)
    await h.settled()
    expect(texts()).to.deep.equal(['one', 'two'])
    expect(h.server.requests).to.have.length(2)
  })

  it('onExceeded reply: a restart the same day does not send the reply again (it is a row of the day file)', async () => {
    h = await start({ perChannelDay: 0.5, onExceeded: 'reply', reply: 'Spent for today.' })
    h.server.script(say('hi'))
    await h.client('alice', 'room1').receive(mention('hello'))
    await h.server.waitForRequests(1)
    await h.settled()
    expect(texts()).to.deep.equal(['hi', 'Spent for today.'])
    // the service's stop (which writes the day file) has finished, not only the homes' locks
    await disposeAndWait(h)
    await homesFree(h.dataDir)
    const dir = join(h.dataDir, 'budgets')
    await h.until(async () => (await dayFile(dir)).includes('"reply"'), 'the reply row')

    h.fork = h.app.plugin(kotodama, h.config)
    await h.idle()
    await h.client('bob', 'room1').receive(mention('still spent?'))
    await h.settled()
    expect(h.server.requests).to.have.length(1)
    expect(texts()).to.deep.equal(['hi', 'Spent for today.'])
  })

  it('onExceeded reply on storage: database: the reply row goes into the budget table, so a restart does not send it again', async () => {
    h = await start({ perChannelDay: 0.5, onExceeded: 'reply', reply: 'Spent for today.' }, { storage: 'database', database: memoryDatabase() })
    h.server.script(say('hi'))
    await h.client('alice', 'room1').receive(mention('hello'))
    await h.server.waitForRequests(1)
    await h.settled()
    expect(texts()).to.deep.equal(['hi', 'Spent for today.'])
    const service = h.app.kotodama
    h.fork.dispose()
    await service.stopped()
    const stored = await koishiBudgetTable(h.app).read((await service.budgetReport()).day)
    expect(stored.map(r => r.scope)).to.include('reply').and.include('channel')
    expect(h.warnings().join('\n')).to.not.include('could not be stored')

    h.fork = h.app.plugin(kotodama, h.config)
    await h.idle()
    await h.client('bob', 'room1').receive(mention('still spent?'))
    await h.settled()
    expect(h.server.requests).to.have.length(1)
    expect(texts()).to.deep.equal(['hi', 'Spent for today.'])
  })
})
