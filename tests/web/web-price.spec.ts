// Every web query sent upstream is paid (SPEC §24, §22): web.price in the usage book and the budgets,
// paid by the turn's payer; past a budget the next query is held with a clear error and never sent,
// while a cached page stays free; inside a program a query is one of codemode.maxPaidCalls.
import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runtimeHome } from '../../src/runtime/runtime-options'
import { safeName } from '../../src/util/safe-name'
import { Harness, call } from '../support/harness'
import { FakeWebSearch } from '../support/fake-web-search'

const program = (queries: string[]) => `const out = []
for (const q of ${JSON.stringify(queries)}) {
  const r = await tools.read({ url: 'web://search?q=' + q })
  out.push(r.kind === 'error' ? r.error.code + ': ' + r.error.message : 'ok')
}
return out`

describe('web search: each query counted and priced (SPEC §24, §22)', function () {
  this.timeout(20000)
  let h: Harness | undefined
  let web: FakeWebSearch
  beforeEach(async () => {
    web = await FakeWebSearch.start()
    web.searxng.fallback({ results: [{ title: 'R', url: 'https://example.org/r', content: 'r' }] })
  })
  afterEach(async () => {
    await h?.stop()
    await web.close()
    h = undefined
  })

  /** Runs one program in a turn alice woke in room; its result as stored for the model. */
  async function run(queries: string[]): Promise<string[]> {
    const before = h!.server.requests.length
    h!.server.script({ toolCalls: [call('codemode', { code: program(queries) })] }, { toolCalls: [call('finish', {})] })
    await h!.client('alice', 'room').receive('<at id="514"/> look these up')
    await h!.server.waitForRequests(before + 1)
    await h!.settled()
    await Promise.all((await h!.app.kotodama.list()).map(r => r.written()))
    const file = join(runtimeHome(h!.dataDir, 'neko', 'mock:514'), 'conversations', `${safeName('group:room')}.jsonl`)
    const steps = (await readFile(file, 'utf8')).split('\n').filter(Boolean).map(l => JSON.parse(l)).filter(e => e.type === 'step')
    const parts = steps.flatMap(e => e.messages).filter((m: any) => m.role === 'tool').flatMap((m: any) => m.content)
    return parts.filter((p: any) => p.toolName === 'codemode').at(-1).output.value
  }

  it('web.price per upstream query in the usage book and the budget; past perChannelDay the next query is held, a cached one stays free', async () => {
    h = await Harness.start({
      profile: { web: { search: 'searxng', baseURL: web.origin, price: 0.5 }, codemode: { enabled: true, direct: [] } },
      budgets: { perChannelDay: 1, onExceeded: 'silent' },
    })
    const out = await run(['one', 'two', 'three', 'one'])
    expect(out.slice(0, 2)).to.deep.equal(['ok', 'ok'])
    expect(out[2]).to.match(/^budget_exceeded: BudgetExceeded: the perChannelDay budget is spent for today \(1 of 1\)/)
    expect(out[3], 'a cached page costs nothing').to.equal('ok')
    expect(web.searxng.requests.map(r => new URLSearchParams(r.query).get('q'))).to.deep.equal(['one', 'two'])
    const [runtime] = await h.app.kotodama.list()
    expect(runtime.usage.snapshot().find(u => u.model === 'web:searxng')?.today).to.include({ requests: 2, errors: 0, cost: 1 })
    const report = await h.app.kotodama.budgetReport()
    expect(report.lines.find(l => l.name === 'perChannelDay')!.top[0]).to.include({ key: 'channel:neko/mock:514/group:room', spent: 1 })
    expect(report.lines.find(l => l.name === 'perUserDay')!.top[0]).to.include({ key: 'user:mock:alice', spent: 1 })
  })

  it('inside a program a query is a paid call: past codemode.maxPaidCalls it is refused and not sent', async () => {
    h = await Harness.start({
      profile: { web: { search: 'searxng', baseURL: web.origin }, codemode: { enabled: true, direct: [] } },
      codemode: { maxPaidCalls: 1 },
    })
    const out = await run(['a', 'b', 'a'])
    expect(out[0]).to.equal('ok')
    expect(out[1]).to.match(/^paid_call_limit: PaidCallLimit: this program made its 1 paid calls \(codemode.maxPaidCalls\); a web search was not asked/)
    expect(out[2], 'the cached page is no paid call').to.equal('ok')
    expect(web.searxng.requests).to.have.length(1)
  })
})
