// Every model call pays (SPEC §22): a vision question from read is charged to the conversation whose
// turn asked it, and past the budget it is held with a structured error naming the budget — the
// vision server never sees the request.
import { expect } from 'chai'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runtimeHome } from '../../src/runtime/runtime-options'
import { safeName } from '../../src/util/safe-name'
import { Harness, call } from '../support/harness'
import { FakeOpenAI } from '../support/fake-openai'
import { tinyPng } from '../support/tiny-png'

const PRICE = { input: 1000, output: 1000 }
const costing = (cost: number) => ({ usage: { prompt_tokens: Math.round(cost * 1000), completion_tokens: 0 } })
const ask = (cost: number, question: string) => ({ toolCalls: [call('read', { url: `local://dot.png?question=${question}` })], ...costing(cost) })

describe('budgets: vision questions are charged and held (SPEC §22)', function () {
  let h: Harness | undefined
  let eye: FakeOpenAI | undefined
  afterEach(async () => {
    await h?.stop()
    await eye?.close()
    h = eye = undefined
  })

  it('a vision question pays for its conversation; past perChannelDay read returns budget_exceeded and the vision model is not asked', async () => {
    eye = await FakeOpenAI.start()
    h = await Harness.start({
      model: { price: PRICE },
      extraModels: [{ id: 'eye', baseURL: eye.baseURL, apiKey: 'sk-eye', model: 'eye-model', maxRetries: 0, timeoutMs: 5000, price: PRICE }],
      profile: { attachment: { visionModel: 'eye' } },
      budgets: { perChannelDay: 1.5, onExceeded: 'silent' },
    })
    const local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
    await mkdir(local, { recursive: true })
    await writeFile(join(local, 'dot.png'), tinyPng(0, 1, 1))
    eye.script({ content: 'a single dark pixel', ...costing(1) })
    h.server.script(ask(0.1, 'what color is it?'), { toolCalls: [call('finish', {})], ...costing(0.1) })
    await h.client('alice', 'room1').receive('<at id="514"/> look')
    await h.server.waitForRequests(2)
    await h.settled()
    const channel = () => h!.app.kotodama.budgetReport().then(r => r.lines.find(l => l.name === 'perChannelDay')!.top[0])
    // 0.1 + the vision question's 1 + 0.1
    const spent = await channel()
    expect(spent.key).to.equal('channel:neko/mock:514/group:room1')
    expect(spent.spent).to.be.closeTo(1.2, 1e-9)

    // another question (the same one is answered from the cache, free)
    h.server.script(ask(0.3, 'how big is it?'))
    await h.client('alice', 'room1').receive('<at id="514"/> and again')
    await h.server.waitForRequests(3)
    await h.settled()
    expect(eye.requests).to.have.length(1)
    expect(h.server.requests).to.have.length(3)
    const file = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'conversations', `${safeName('group:room1')}.jsonl`)
    await h.app.kotodama.list().then(rs => Promise.all(rs.map(r => r.written())))
    const results = (await readFile(file, 'utf8')).split('\n').filter(l => l.includes('"tool-result"') && l.includes('budget_exceeded'))
    expect(results, 'the read result stored for the model').to.have.length(1)
    expect(results[0]).to.include('BudgetExceeded: the perChannelDay budget is spent for today (1.5 of 1.5)')
  })

  it('a vision question asked inside a codemode program pays for the conversation too (the sandbox keeps the payer)', async () => {
    eye = await FakeOpenAI.start()
    h = await Harness.start({
      model: { price: PRICE },
      extraModels: [{ id: 'eye', baseURL: eye.baseURL, apiKey: 'sk-eye', model: 'eye-model', maxRetries: 0, timeoutMs: 5000, price: PRICE }],
      profile: { codemode: { enabled: true, direct: [] }, attachment: { visionModel: 'eye' } },
      budgets: { perChannelDay: 100 },
    })
    const local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
    await mkdir(local, { recursive: true })
    await writeFile(join(local, 'dot.png'), tinyPng(0, 1, 1))
    eye.script({ content: 'a single dark pixel', ...costing(2) })
    const code = "const r = await tools.read({ url: 'local://dot.png?question=what' }); return r"
    h.server.script({ toolCalls: [call('codemode', { code })], ...costing(0.1) }, { toolCalls: [call('finish', {})], ...costing(0.1) })
    await h.client('alice', 'room1').receive('<at id="514"/> look')
    await h.server.waitForRequests(2)
    await h.settled()
    expect(eye.requests).to.have.length(1)
    const report = await h.app.kotodama.budgetReport()
    const channel = report.lines.find(l => l.name === 'perChannelDay')!.top[0]
    expect(channel.spent).to.be.closeTo(2.2, 1e-9)
    expect(report.lines.find(l => l.name === 'perUserDay')!.top[0]).to.include({ key: 'user:mock:alice' })
  })
})
