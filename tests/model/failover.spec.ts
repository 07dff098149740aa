import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Harness, call } from '../support/harness'
import { FakeOpenAI } from '../support/fake-openai'
import { runtimeHome } from '../../src/runtime/runtime'
import { systemClock, type Clock } from '../../src/util/clock'

const model = (id: string, server: { baseURL: string }, extra: any = {}) => ({ id, baseURL: server.baseURL, apiKey: 'sk-test', model: `${id}-model`, maxRetries: 0, timeoutMs: 10000, ...extra })

describe('failover between models (SPEC §11)', function () {
  let h: Harness
  let a: FakeOpenAI
  let b: FakeOpenAI
  beforeEach(async () => {
    a = await FakeOpenAI.start()
    b = await FakeOpenAI.start()
  })
  afterEach(async () => {
    await h?.stop()
    await a.close()
    await b.close()
  })

  const start = (mainExtra: any = {}, mainServer: { baseURL: string } = a) => Harness.start({
    models: [model('main', mainServer, { fallback: ['backup'], ...mainExtra }), model('backup', b)],
  })

  async function steps(h: Harness): Promise<any[]> {
    const file = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'conversations', 'private%3Abob.jsonl')
    return (await readFile(file, 'utf8')).split('\n').filter(Boolean).map(l => JSON.parse(l)).filter(e => e.type === 'step')
  }

  async function answeredByBackup(h: Harness) {
    await h.client('bob').receive('hello')
    await h.until(() => h.sent.length === 1, 'the backup\'s message')
    await h.settled()
    expect(h.sent[0].content).to.include('from backup')
    expect(b.requests).to.have.length(1)
    const [step] = await steps(h)
    expect(step.usage.model).to.equal('backup')
  }

  it('a 503 of the first model: the step is answered by the fallback', async () => {
    h = await start()
    a.script({ status: 503, error: 'overloaded' })
    b.script({ toolCalls: [call('send_message', { messages: ['from backup'] }), call('finish', {})] })
    await answeredByBackup(h)
    expect(a.requests).to.have.length(1)
    expect(h.warnings().join('\n')).to.match(/model "main" is unavailable.*trying "backup"/)
  })

  it('a 429 fails over too', async () => {
    h = await start()
    a.script({ status: 429, error: 'rate limited' })
    b.script({ toolCalls: [call('send_message', { messages: ['from backup'] }), call('finish', {})] })
    await answeredByBackup(h)
    expect(a.requests).to.have.length(1)
  })

  it('a refused connection fails over', async () => {
    const gone = await FakeOpenAI.start()
    await gone.close()
    h = await start({}, gone)
    b.script({ toolCalls: [call('send_message', { messages: ['from backup'] }), call('finish', {})] })
    await answeredByBackup(h)
  })

  it('a timeout fails over', async () => {
    h = await start({ timeoutMs: 300 })
    a.script({ hang: true })
    b.script({ toolCalls: [call('send_message', { messages: ['from backup'] }), call('finish', {})] })
    await answeredByBackup(h)
    expect(a.requests).to.have.length(1)
  })

  it('a 400 does not fail over: a warning, the turn ends, the fallback is never asked', async () => {
    h = await start()
    a.script({ status: 400, error: 'bad request' })
    await h.client('bob').receive('hello')
    await a.waitForRequests(1)
    await h.settled()
    expect(b.requests).to.have.length(0)
    expect(h.sent).to.have.length(0)
    expect(h.warnings().join('\n')).to.match(/the call to model "main" failed.*bad request/)
  })

  it('after 3 failures in a row the first model is skipped, and comes back after its cool-down', async () => {
    h = await start()
    let offset = 0
    const clock: Clock = { ...systemClock, now: () => Date.now() + offset }
    h.app.kotodama.clock = clock
    a.fallback({ status: 503, error: 'down' })
    b.fallback({ toolCalls: [call('finish', {})] })
    const bob = h.client('bob')
    const turn = async (n: number) => {
      await bob.receive(`message ${n}`)
      await b.waitForRequests(n)
      await h.settled()
    }
    for (let n = 1; n <= 3; n++) await turn(n)
    expect(a.requests).to.have.length(3)
    const skipped = () => h.logs.filter(l => /model "main" was unavailable 3 times in a row; skipped for 60 s/.test(l.text))
    expect(skipped()).to.have.length(1)
    await turn(4)
    await turn(5)
    // skipped: straight to the backup
    expect(a.requests).to.have.length(3)
    offset += 61_000
    a.fallback({ toolCalls: [call('finish', {})] })
    await bob.receive('message 6')
    await a.waitForRequests(4)
    await h.settled()
    expect(b.requests).to.have.length(5)
    const back = h.logs.filter(l => /model "main" is tried again/.test(l.text))
    expect(back).to.have.length(1)
    expect(skipped()).to.have.length(1)
    const all = await steps(h)
    expect(all.map(s => s.usage.model)).to.deep.equal(['backup', 'backup', 'backup', 'backup', 'backup', 'main'])
  })
})
