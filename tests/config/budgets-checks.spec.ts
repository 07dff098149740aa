// SPEC §22 "What it may cost": a wrong budgets value costs only its field, reported with its path.
import { expect } from 'chai'
import { checkConfig } from '../../src/runtime/config-of-parts'

const base = { dataDir: 'd', storage: 'files' as const, codemode: {} as any, profiles: [] as any[], mcp: { servers: [] as any[] } }
const model = { id: 'cheap', baseURL: 'http://127.0.0.1:1/v1', apiKey: '', model: 'c', maxRetries: 0, timeoutMs: 1000, contextTokens: 0 } as any

describe('budgets checks', () => {
  it('keeps good limits, reports a negative one and an unknown onExceeded with their paths', () => {
    const checked = checkConfig({ ...base, models: [model], budgets: { perChannelDay: 2.5, perUserDay: -1, onExceeded: 'shout', fallback: 'cheap' } as any })
    expect(checked.budgets.perChannelDay).to.equal(2.5)
    expect(checked.budgets.perUserDay).to.equal(0)
    expect(checked.budgets.onExceeded).to.equal('fallback')
    expect(checked.budgets.fallback).to.equal('cheap')
    expect(checked.problems.map(p => p.path)).to.have.members(['budgets.perUserDay', 'budgets.onExceeded'])
  })

  it('a fallback that names no configured model is reported and left empty', () => {
    const checked = checkConfig({ ...base, models: [model], budgets: { fallback: 'gpt-5' } as any })
    expect(checked.budgets.fallback).to.equal('')
    const problem = checked.problems.find(p => p.path === 'budgets.fallback')
    expect(problem?.message).to.contain('"gpt-5"').and.contain('no configured model')
  })
})
