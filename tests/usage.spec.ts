import { expect } from 'chai'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Harness, call } from './support/harness'
import { runtimeHome } from '../src/runtime/runtime'

describe('usage per step and per model (SPEC §11)', function () {
  let h: Harness
  afterEach(async () => { await h?.stop() })

  const home = (h: Harness) => runtimeHome(h.dataDir, 'neko', 'mock:514')

  async function steps(h: Harness): Promise<any[]> {
    const file = join(home(h), 'conversations', 'private%3Abob.jsonl')
    return (await readFile(file, 'utf8')).split('\n').filter(Boolean).map(l => JSON.parse(l)).filter(e => e.type === 'step')
  }

  async function turn(h: Harness, n: number, text = `message ${n}`) {
    await h.client('bob').receive(text)
    await h.server.waitForRequests(n)
    await h.settled()
  }

  const status = async (h: Harness) => (await h.client('bob').receive('kotodama.status'))[0]

  it('a step records the model, its latency and the tokens the server reported', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('finish', {})], usage: { prompt_tokens: 120, completion_tokens: 30, reasoning_tokens: 7, cached_tokens: 64 } })
    await turn(h, 1)
    const [step] = await steps(h)
    expect(step.usage).to.include({ model: 'main', promptTokens: 120, completionTokens: 30, reasoningTokens: 7, cachedTokens: 64 })
    expect(step.usage.latencyMs).to.be.a('number').at.least(0)
  })

  it('without a usage object the step still records the model and latency, and no tokens', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('finish', {})], usage: false })
    await turn(h, 1)
    const [step] = await steps(h)
    expect(step.usage.model).to.equal('main')
    expect(step.usage.latencyMs).to.be.a('number')
    expect(step.usage).to.not.have.any.keys('promptTokens', 'completionTokens', 'reasoningTokens', 'cachedTokens')
  })

  it('kotodama.status shows requests and tokens; after a reload "today" keeps the counts', async () => {
    h = await Harness.start()
    h.server.fallback({ toolCalls: [call('finish', {})], usage: { prompt_tokens: 100, completion_tokens: 10 } })
    await turn(h, 1)
    await turn(h, 2)
    const first = await status(h)
    expect(first, first).to.include('model main: 2 requests, 200 prompt + 20 completion tokens')
    expect(first, first).to.include('0 errors since start; today 2 requests, 200 + 20 tokens, 0 errors')
    await h.reload()
    const files = await readdir(join(home(h), 'usage'))
    expect(files).to.have.length(1)
    expect(files[0]).to.match(/^\d{4}-\d{2}-\d{2}\.json$/)
    await turn(h, 3)
    const after = await status(h)
    expect(after, after).to.include('model main: 1 requests, 100 prompt + 10 completion tokens, 0 errors since start; today 3 requests, 300 + 30 tokens, 0 errors')
  })

  it('failed requests count as errors', async () => {
    h = await Harness.start()
    h.server.script({ status: 500, error: 'boom' })
    await turn(h, 1)
    h.server.script({ toolCalls: [call('finish', {})], usage: { prompt_tokens: 50, completion_tokens: 5 } })
    await turn(h, 2)
    const text = await status(h)
    expect(text, text).to.include('model main: 2 requests, 50 prompt + 5 completion tokens, 1 errors since start; today 2 requests, 50 + 5 tokens, 1 errors')
  })
})
