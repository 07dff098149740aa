// Usage per step and per model (SPEC §11) and what it costs (SPEC §16): the arithmetic, the usage
// book with its daily files, and kotodama.status over real requests to the fake server.
import { expect } from 'chai'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { format } from 'node:util'
import { Harness, call } from '../support/harness'
import { runtimeHome } from '../../src/runtime/runtime'
import { cachedShare, costOf, formatCost, formatShare, knownPrice } from '../../src/usage/cost'
import { UsageBook } from '../../src/usage/book'
import type { Clock } from '../../src/util/clock'
import type { Logger } from '../../src/util/logger'

describe('cost arithmetic (SPEC §16)', () => {
  const price = { input: 2, cachedInput: 0.5, output: 8 }

  it('(prompt − cached) × input + cached × cachedInput + completion × output, per million tokens', () => {
    expect(costOf({ promptTokens: 1000, cachedTokens: 600, completionTokens: 100 }, price)).to.be.closeTo((400 * 2 + 600 * 0.5 + 100 * 8) / 1e6, 1e-15)
    expect(costOf({ promptTokens: 1_000_000, completionTokens: 0 }, price)).to.equal(2)
    expect(costOf({ completionTokens: 1_000_000 }, price)).to.equal(8)
  })

  it('an unknown price (absent, 0 input or output) gives no cost, not 0; no tokens reported gives none either', () => {
    expect(costOf({ promptTokens: 1000, completionTokens: 10 }, undefined)).to.equal(undefined)
    expect(costOf({ promptTokens: 1000, completionTokens: 10 }, { input: 0, cachedInput: 0, output: 0 })).to.equal(undefined)
    expect(costOf({ promptTokens: 1000, completionTokens: 10 }, { input: 1, cachedInput: 0, output: 0 })).to.equal(undefined)
    expect(costOf({}, price)).to.equal(undefined)
    expect(knownPrice(price)).to.equal(true)
    expect(knownPrice({ input: 0, cachedInput: 1, output: 1 })).to.equal(false)
  })

  it('an unknown cached price counts cached tokens at the input price; cached never exceeds the prompt', () => {
    expect(costOf({ promptTokens: 1000, cachedTokens: 600 }, { input: 2, cachedInput: 0, output: 8 })).to.be.closeTo(1000 * 2 / 1e6, 1e-15)
    expect(costOf({ promptTokens: 100, cachedTokens: 500 }, price)).to.be.closeTo(100 * 0.5 / 1e6, 1e-15)
  })

  it('the cached share is cached / prompt; without prompt tokens it is unknown', () => {
    expect(cachedShare({ promptTokens: 1000, cachedTokens: 250 })).to.equal(0.25)
    expect(cachedShare({ promptTokens: 1000 })).to.equal(0)
    expect(cachedShare({ promptTokens: 0, cachedTokens: 0 })).to.equal(undefined)
    expect(formatShare(0.456)).to.equal('46%')
    expect(formatShare(undefined)).to.equal('—')
  })

  it('costs read as a few significant digits, never in exponent notation', () => {
    expect(formatCost(0.0038)).to.equal('0.0038')
    expect(formatCost(0.012345)).to.equal('0.012')
    expect(formatCost(0.5)).to.equal('0.5')
    expect(formatCost(1e-7)).to.equal('0.0000001')
    expect(formatCost(3.14159)).to.equal('3.14')
    expect(formatCost(1234.5)).to.equal('1235')
    expect(formatCost(0)).to.equal('0')
  })
})

describe('the usage book (SPEC §11, §16)', () => {
  let dir: string
  let now = Date.parse('2026-03-10T12:00:00Z')
  const clock: Clock = {
    now: () => now, monotonic: () => now,
    setTimeout: (fn, ms) => { const t = setTimeout(fn, ms); const timer = { cancel: () => clearTimeout(t), unref: () => { t.unref(); return timer } }; return timer },
    queueMicrotask: fn => queueMicrotask(fn),
  }
  const warnings: string[] = []
  const logger: Logger = { debug() {}, info() {}, warn: (f: string, ...a: any[]) => { warnings.push(format(f, ...a)) }, error() {} }
  const prices: Record<string, any> = { main: { input: 2, cachedInput: 0.5, output: 8 } }
  const book = () => new UsageBook(dir, clock, logger, id => prices[id])
  const step = (model: string, promptTokens: number, cachedTokens: number, completionTokens: number) => ({ model, latencyMs: 10, promptTokens, cachedTokens, completionTokens })

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-usage-'))
    now = Date.parse('2026-03-10T12:00:00Z')
  })
  afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

  it('counts cached tokens and the cost of priced models; a model without a price has no cost, not 0', async () => {
    const b = book()
    b.record('main', step('main', 1000, 600, 100), true)
    b.record('main', step('main', 1000, 0, 100), true)
    b.record('local', step('local', 500, 100, 50), true)
    b.record('main', undefined, false)
    const [local, main] = b.snapshot()
    expect(local.today).to.deep.equal({ requests: 1, errors: 0, promptTokens: 500, cachedTokens: 100, completionTokens: 50 })
    expect(main.total).to.include({ requests: 3, errors: 1, promptTokens: 2000, cachedTokens: 600, completionTokens: 200 })
    expect(main.total.cost).to.be.closeTo((400 * 2 + 600 * 0.5 + 100 * 8 + 1000 * 2 + 100 * 8) / 1e6, 1e-12)
    const [today] = b.days()
    expect(today).to.include({ day: '2026-03-10', requests: 4, promptTokens: 2500, cachedTokens: 700, completionTokens: 250 })
    expect(today.cost).to.be.closeTo(main.total.cost!, 1e-12)
    await b.stop()
  })

  it('the daily file keeps cached tokens and cost; old files without them load; the last days come from their files', async () => {
    await mkdir(dir, { recursive: true })
    // an old file of today (before cached tokens and cost were counted), yesterday's, and one too old to list
    await writeFile(join(dir, '2026-03-10.json'), JSON.stringify({ day: '2026-03-10', models: { main: { requests: 2, errors: 1, promptTokens: 300, completionTokens: 30 } } }))
    await writeFile(join(dir, '2026-03-09.json'), JSON.stringify({ day: '2026-03-09', models: { main: { requests: 5, errors: 0, promptTokens: 5000, cachedTokens: 4000, completionTokens: 500, cost: 0.01 }, local: { requests: 1, errors: 0, promptTokens: 10, completionTokens: 1 } } }))
    await writeFile(join(dir, '2026-03-03.json'), JSON.stringify({ day: '2026-03-03', models: { main: { requests: 9, errors: 0, promptTokens: 9, completionTokens: 9 } } }))
    await writeFile(join(dir, '2026-03-05.json'), '{ torn')
    const b = book()
    await b.load()
    b.record('main', step('main', 1000, 600, 100), true)
    const days = b.days()
    expect(days.map(d => d.day)).to.deep.equal(['2026-03-10', '2026-03-09'])
    expect(days[0]).to.include({ requests: 3, errors: 1, promptTokens: 1300, cachedTokens: 600, completionTokens: 130 })
    expect(days[0].cost).to.be.closeTo(0.0019, 1e-12)
    expect(days[1]).to.deep.equal({ day: '2026-03-09', requests: 6, errors: 0, promptTokens: 5010, cachedTokens: 4000, completionTokens: 501, cost: 0.01 })
    expect(warnings.join('\n')).to.include('usage file of 2026-03-05 could not be read')
    await b.stop()
    const written = JSON.parse(await readFile(join(dir, '2026-03-10.json'), 'utf8'))
    expect(written.models.main).to.include({ requests: 3, errors: 1, promptTokens: 1300, cachedTokens: 600, completionTokens: 130 })
    expect(written.models.main.cost).to.be.closeTo(0.0019, 1e-12)
  })

  it('at midnight the day that ended joins the last days, and its file keeps its counts', async () => {
    const b = book()
    await b.load()
    b.record('main', step('main', 1000, 0, 100), true)
    now = Date.parse('2026-03-11T00:00:01Z')
    b.record('main', step('main', 2000, 1000, 100), true)
    expect(b.days().map(d => [d.day, d.promptTokens])).to.deep.equal([['2026-03-11', 2000], ['2026-03-10', 1000]])
    await b.stop()
    expect(JSON.parse(await readFile(join(dir, '2026-03-10.json'), 'utf8')).models.main.promptTokens).to.equal(1000)
    expect(JSON.parse(await readFile(join(dir, '2026-03-11.json'), 'utf8')).models.main.promptTokens).to.equal(2000)
  })
})

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
    h = await Harness.start({ trust: { owners: ['mock:bob'] } })
    h.server.fallback({ toolCalls: [call('finish', {})], usage: { prompt_tokens: 100, completion_tokens: 10 } })
    await turn(h, 1)
    await turn(h, 2)
    const first = await status(h)
    // every line in words: no text key shows raw (the acts' capabilities once did)
    expect(first, first).to.not.match(/\.feature\.|commands\.kotodama/)
    expect(first, first).to.include('reactions')
    expect(first, first).to.include('  model main:\n    since start: 2 requests, 200 prompt tokens (0% cached), 20 completion tokens, 0 errors\n')
    expect(first, first).to.include('    today: 2 requests, 200 prompt tokens (0% cached), 20 completion tokens, 0 errors')
    // no price: no cost at all, rather than a cost of 0
    expect(first, first).to.not.include('cost')
    await h.reload()
    const files = await readdir(join(home(h), 'usage'))
    expect(files).to.have.length(1)
    expect(files[0]).to.match(/^\d{4}-\d{2}-\d{2}\.json$/)
    await turn(h, 3)
    const after = await status(h)
    expect(after, after).to.include('since start: 1 requests, 100 prompt tokens (0% cached), 10 completion tokens, 0 errors\n    today: 3 requests, 300 prompt tokens (0% cached), 30 completion tokens, 0 errors')
  })

  it('kotodama.status shows the cached share and the cost of a priced model, since start and today', async () => {
    h = await Harness.start({ model: { price: { input: 2, cachedInput: 0.5, output: 8 } }, trust: { owners: ['mock:bob'] } })
    h.server.fallback({ toolCalls: [call('finish', {})], usage: { prompt_tokens: 1000, cached_tokens: 600, completion_tokens: 100 } })
    await turn(h, 1)
    await turn(h, 2)
    // each request: (400 × 2 + 600 × 0.5 + 100 × 8) / 1e6 = 0.0019
    const text = await status(h)
    expect(text, text).to.include('since start: 2 requests, 2000 prompt tokens (60% cached), 200 completion tokens, 0 errors, cost 0.0038')
    expect(text, text).to.include('today: 2 requests, 2000 prompt tokens (60% cached), 200 completion tokens, 0 errors, cost 0.0038')
    await h.reload()
    const [file] = await readdir(join(home(h), 'usage'))
    const day = JSON.parse(await readFile(join(home(h), 'usage', file), 'utf8'))
    expect(day.models.main).to.include({ requests: 2, promptTokens: 2000, cachedTokens: 1200, completionTokens: 200 })
    expect(day.models.main.cost).to.be.closeTo(0.0038, 1e-12)
  })

  it('failed requests count as errors', async () => {
    h = await Harness.start({ trust: { owners: ['mock:bob'] } })
    h.server.script({ status: 500, error: 'boom' })
    await turn(h, 1)
    h.server.script({ toolCalls: [call('finish', {})], usage: { prompt_tokens: 50, completion_tokens: 5 } })
    await turn(h, 2)
    const text = await status(h)
    expect(text, text).to.include('since start: 2 requests, 50 prompt tokens (0% cached), 5 completion tokens, 1 errors\n    today: 2 requests, 50 prompt tokens (0% cached), 5 completion tokens, 1 errors')
  })
})
