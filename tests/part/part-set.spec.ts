// The parts of one runtime as a set (docs/architecture.md "Parts"): made in list order with a scope
// each, started in order (one that throws stops those already started), looked up by plugin, and
// from stop on their ports refuse: no append, no turn.
import { expect } from 'chai'
import { format } from 'node:util'
import { PartSet, type PartSetDeps } from '../../src/part/part-set'
import { PartStopped, type PartPlugin, type PartScope } from '../../src/part/plugin'
import type { RuntimePart } from '../../src/part/runtime-part'
import { systemClock } from '../../src/util/clock'

interface Probe extends RuntimePart {
  scope: PartScope<{ n: number }>
}

describe('part set', () => {
  const events: string[] = []
  const warnings: string[] = []
  const deps = (): PartSetDeps => ({
    view: { profile: { id: 'p', probe: { n: 7 } }, bot: 'test:1', home: '/nowhere', logger: { debug() {}, info() {}, error() {}, warn: (f: string, ...a: unknown[]): void => void warnings.push(format(f, ...a)) } } as any,
    clock: systemClock, calls: {} as any, platform: {}, texts: {} as any,
    history: () => ({}) as any,
    append: async conversation => void events.push(`append ${conversation}`),
    receive: async fact => { events.push(`receive ${fact.channel}`); return true },
    request: async channel => void events.push(`request ${channel}`),
    muted: () => false,
    conversationOf: channel => channel,
  })
  /** A plugin whose part records its lifecycle; `fails` makes its start throw. */
  const probe = (name: string, o: { fails?: boolean; off?: boolean } = {}): PartPlugin<{ n: number }, Probe> => ({
    name,
    section: { key: 'probe', default: { n: 1 }, schema: () => { throw new Error('no form here') } },
    create: scope => o.off ? undefined : {
      name, scope,
      start: async () => {
        if (o.fails) throw new Error(`${name} cannot start`)
        events.push(`start ${name}`)
      },
      stop: async () => void events.push(`stop ${name}`),
      unloaded: key => {
        if (name === 'b') throw new Error('b forgot how')
        events.push(`unloaded ${name} ${key}`)
      },
    },
  })
  beforeEach(() => { events.length = 0; warnings.length = 0 })

  it('a part that fails to start stops the parts already started; the error goes on', async () => {
    const [a, b, c] = [probe('a'), probe('b', { fails: true }), probe('c')]
    const set = new PartSet([a, b, c], deps())
    let failed: unknown
    await set.start().catch(e => { failed = e })
    expect((failed as Error)?.message).to.equal('b cannot start')
    expect(events).to.deep.equal(['start a', 'stop a', 'stop b', 'stop c'])
  })

  it('looks a part up by its plugin, with its section as its config; an off part is absent', () => {
    const [a, off] = [probe('a'), probe('off', { off: true })]
    const set = new PartSet([a, off], deps())
    expect(set.get(a)?.scope.config).to.deep.equal({ n: 7 })
    expect(set.get(off)).to.equal(undefined)
    expect(set.all.map(p => p.name)).to.deep.equal(['a'])
  })

  it('after stop the ports refuse with PartStopped and nothing reaches the runtime', async () => {
    const a = probe('a')
    const set = new PartSet([a], deps())
    await set.start()
    const { scope } = set.get(a)!
    await scope.append('group:1', [])
    await set.stop()
    expect(scope.signal.aborted).to.equal(true)
    const refused = await Promise.allSettled([scope.append('group:1', []), scope.request('group:1', { reason: 'idle' }), scope.receive({ channel: 'group:1' } as any)])
    expect(refused.map(r => r.status === 'rejected' && r.reason instanceof PartStopped)).to.deep.equal([true, true, true])
    expect(events).to.deep.equal(['start a', 'append group:1', 'stop a'])
  })

  it('unloaded reaches every part; one that throws is logged and the next still frees its state', () => {
    const set = new PartSet([probe('a'), probe('b'), probe('c')], deps())
    set.unloaded('group:9')
    expect(events).to.deep.equal(['unloaded a group:9', 'unloaded c group:9'])
    expect(warnings.join('\n')).to.include('b could not free conversation group:9: b forgot how')
  })
})
