// SPEC §22 onExceeded: fallback, per kind of call (docs/cost.md "The gate"): past a budget a step,
// the judge and a vision question go to budgets.fallback; embeddings, transcription and speech are
// held with BudgetExceeded (a chat model neither embeds in the same space, nor hears, nor speaks).
// Unit level: ModelCalls with a gate that always says "past the budget, use the fallback".
import { expect } from 'chai'
import { BudgetExceeded, type BudgetGate } from '../../src/contract/budget'
import { ModelCalls, type CallKind } from '../../src/model/calls'
import type { ModelHandle } from '../../src/model/provider'
import { systemClock } from '../../src/util/clock'

const quiet = { debug() {}, info() {}, warn() {}, error() {} }
const handle = (id: string): ModelHandle => ({ config: { id, model: id, baseURL: '', timeoutMs: 1000, maxRetries: 0 } as any, model: id as any })

describe('budgets: what a kind of call does past a budget under onExceeded: fallback', () => {
  const gate: BudgetGate = {
    check: () => ({ budget: 'day', key: 'all', spent: 2, limit: 1, then: 'fallback', fallback: 'cheap' }),
    charge() {},
    replyOnce: () => undefined,
  }
  const calls = new ModelCalls({ models: new Map([['main', handle('main')], ['cheap', handle('cheap')]]), usage: { record() {} }, clock: systemClock, logger: quiet, gate })
  const asked = (kind: CallKind) => calls.run({ kind, model: 'main', call: async h => h.config.id, tokens: () => ({}) })
    .then(a => a.result, e => e instanceof BudgetExceeded ? 'held' : `failed: ${e}`)

  it('a step, the judge and a vision question are answered by the fallback model', async () => {
    for (const kind of ['step', 'judge', 'vision'] as const) expect(await asked(kind), kind).to.equal('cheap')
  })

  it('embeddings, transcription and speech are held', async () => {
    for (const kind of ['embedding', 'transcription', 'speech'] as const) expect(await asked(kind), kind).to.equal('held')
  })
})
