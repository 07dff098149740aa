// One history test suite for every storage backend (issue 15): the JSONL files and the database
// table on each minato driver. Each backend supplies how to open a conversation's history, how to
// plant rows that are not entries, and (where it can) how to make writes fail.
import { expect } from 'chai'
import { format } from 'node:util'
import type { HistoryBackend } from '../../src/history/backend'
import type { Entry } from '../../src/history/entries'
import type { Logger } from '../../src/util/logger'

export interface BackendUnderTest {
  /** A fresh store of conversation `key`, as after a restart. */
  open(key: string, logger?: Logger): HistoryBackend
  /** Stores raw texts after the conversation's last entry, past the store; returns for each what a warning about it names. */
  plant(key: string, texts: string[]): Promise<string[]>
  /** How many entries of `key` were moved aside. */
  aside(key: string): Promise<number>
  /** Makes writes fail (true: a full disk, a lost connection) or work again (false); absent where the test cannot. */
  breakWrites?(broken: boolean): void
  close(): Promise<void>
}

export const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} } as any

export function recorder(): Logger & { lines: { level: string; text: string }[] } {
  const lines: { level: string; text: string }[] = []
  const at = (level: string) => (f: string, ...a: any[]) => { lines.push({ level, text: format(f, ...a) }) }
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as any
}

export const fact = (n: number, content = `message ${n}`): Entry => ({
  type: 'fact', at: 1_700_000_000_000 + n, fact: { id: String(n), at: 1_700_000_000_000 + n, bot: 'x:1', channel: 'group:1', direct: false, user: { id: 'u', name: 'U' }, content },
})

const ids = (entries: Entry[]) => entries.map(e => (e as any).fact?.id)
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => String(from + i))

const BAD = ['null', '42', '{"type":"fact","at":1}', '{"type":"step","at":1,"turn":1}', '{"type":"note","at":1}', '{not json']

export function describeHistoryBackend(name: string, setup: (ctx: Mocha.Context) => Promise<BackendUnderTest | undefined>) {
  describe(`history storage: ${name}`, function () {
    let b: BackendUnderTest
    beforeEach(async function () {
      const made = await setup(this)
      if (!made) this.skip()
      b = made
    })
    afterEach(async () => { await b?.close() })

    it('concurrent appends land in order, once each, and survive a restart', async () => {
      const store = b.open('k')
      await Promise.all(Array.from({ length: 300 }, (_, i) => store.append([fact(i)])))
      await store.flushed()
      expect(store.unwritten).to.equal(0)
      expect(ids(await b.open('k').load())).to.deep.equal(range(0, 300))
    })

    it('appends after a restart continue the order', async () => {
      const first = b.open('k')
      await first.append([fact(0), fact(1)])
      await first.flushed()
      const second = b.open('k')
      await second.append([fact(2)])
      await second.append([fact(3)])
      await second.flushed()
      expect(ids(await b.open('k').load())).to.deep.equal(range(0, 4))
    })

    it('loads the tail and says whether older entries exist', async () => {
      const store = b.open('k')
      for (let i = 0; i < 50; i++) store.append([fact(i)]).catch(() => {})
      await store.flushed()
      const again = b.open('k')
      const tail = await again.loadTail(10)
      expect(ids(tail.entries)).to.deep.equal(range(40, 50))
      expect(tail.more).to.equal(true)
      expect((await again.loadTail(49)).more).to.equal(true)
      const exact = await again.loadTail(50)
      expect([exact.entries.length, exact.more]).to.deep.equal([50, false])
      const all = await again.loadTail(1000)
      expect([all.entries.length, all.more]).to.deep.equal([50, false])
      expect(await b.open('empty').loadTail(10)).to.deep.equal({ entries: [], more: false })
    })

    it('keeps conversations apart', async () => {
      const a = b.open('group:a')
      const c = b.open('group:c')
      for (let i = 0; i < 20; i++) await (i % 2 ? a : c).append([fact(i)])
      await Promise.all([a.flushed(), c.flushed()])
      expect(ids(await b.open('group:a').load())).to.deep.equal(range(0, 20).filter(n => Number(n) % 2))
      expect(ids(await b.open('group:c').load())).to.deep.equal(range(0, 20).filter(n => Number(n) % 2 === 0))
    })

    it('an entry of several hundred KiB is stored whole', async () => {
      const store = b.open('k')
      const big = 'あ'.repeat(200_000) + 'x'.repeat(300_000)
      await store.append([fact(0, big)])
      await store.flushed()
      expect((await b.open('k').load() as any)[0].fact.content).to.equal(big)
    })

    it('a stored row that is not an entry is skipped with a warning naming where it is', async () => {
      const store = b.open('k')
      await store.append([fact(1)])
      await store.flushed()
      const where = await b.plant('k', BAD)
      const after = b.open('k')
      await after.append([fact(2)])
      await after.flushed()
      const log = recorder()
      expect(ids(await b.open('k', log).load())).to.deep.equal(['1', '2'])
      const warnings = log.lines.filter(l => l.level === 'warn').map(l => l.text)
      expect(warnings).to.have.length(BAD.length)
      where.forEach((w, i) => expect(warnings[i]).to.include(w))
      expect(log.lines.filter(l => l.level === 'error')).to.deep.equal([])
      // the tail alone: only the bad rows inside it are named
      const tailLog = recorder()
      expect(ids((await b.open('k', tailLog).loadTail(2)).entries)).to.deep.equal(['2'])
      expect(tailLog.lines.filter(l => l.level === 'warn').at(-1)?.text).to.include(where.at(-1))
    })

    it('a stored step with a call and no result, or a result and no call, is repaired on load with a warning naming where (issue 21)', async () => {
      const store = b.open('k')
      await store.append([fact(1)])
      await store.flushed()
      const step = (turn: number, messages: unknown[]) => JSON.stringify({ type: 'step', at: 1_700_000_000_100 + turn, turn, messages })
      const callOf = (id: string) => ({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'send_message', input: { messages: ['hi'] } }] })
      const resultOf = (id: string) => ({ role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'send_message', output: { type: 'json', value: { ok: true, ids: ['1'] } } }] })
      const where = await b.plant('k', [
        step(1, [callOf('cut')]),                                   // crashed before its result was stored
        step(2, [{ role: 'assistant', content: [{ type: 'text', text: 'hm' }] }, resultOf('nobody')]),   // a result answering no call
        step(3, [callOf('call_0'), resultOf('call_0')]),
        step(4, [callOf('call_0'), resultOf('call_0')]),            // a server that numbers every call call_0
      ])
      const log = recorder()
      const entries = await b.open('k', log).load()
      const steps = entries.filter(e => e.type === 'step') as Extract<Entry, { type: 'step' }>[]
      expect(steps).to.have.length(4)
      const [cut, lone, first, second] = steps.map(s => s.messages)
      expect(cut.map(m => m.role)).to.deep.equal(['assistant', 'tool'])
      expect(JSON.stringify(cut[1])).to.include('cut off')
      expect(lone.map(m => m.role), 'the lone result is left out').to.deep.equal(['assistant'])
      const idOf = (ms: any[]) => [ms[0].content[0].toolCallId, ms[1].content[0].toolCallId]
      expect(idOf(first)).to.deep.equal(['call_0', 'call_0'])
      const [call2, result2] = idOf(second)
      expect(call2, 'a reused id is renamed, call and result alike').to.not.equal('call_0')
      expect(result2).to.equal(call2)
      const warnings = log.lines.filter(l => l.level === 'warn').map(l => l.text)
      expect(warnings).to.have.length(3)
      expect(warnings[0]).to.include(where[0]).and.include('without a result (send_message)')
      expect(warnings[1]).to.include(where[1]).and.include('result without a call')
      expect(warnings[2]).to.include(where[3]).and.include('already used')
    })

    it('reset moves the history aside, deletes nothing, and the conversation starts again', async () => {
      const store = b.open('k')
      await store.append([fact(0), fact(1), fact(2)])
      expect(await store.reset()).to.be.a('string')
      expect(await store.load()).to.deep.equal([])
      expect(await b.aside('k')).to.equal(3)
      await store.append([fact(3)])
      await store.flushed()
      const again = b.open('k')
      expect(ids(await again.load())).to.deep.equal(['3'])
      await again.append([fact(4)])
      await again.flushed()
      expect(ids(await b.open('k').load())).to.deep.equal(['3', '4'])
      expect(await b.aside('k')).to.equal(3)
      expect(await b.open('never').reset()).to.equal(undefined)
    })

    it('writes that fail keep the entries in memory and write them, in order, once the storage works again', async function () {
      if (!b.breakWrites) this.skip()
      const log = recorder()
      const store = b.open('k', log)
      await store.append([fact(0)])
      b.breakWrites(true)
      let failed = 0
      // larger than a page: a full disk's last page cannot take them
      const long = (n: number) => fact(n, `message ${n} ${'x'.repeat(6000)}`)
      await store.append([long(1), long(2)]).catch(() => failed++)
      await store.append([long(3)]).catch(() => failed++)
      expect(failed).to.equal(2)
      expect(store.unwritten).to.be.greaterThan(0)
      expect(log.lines.filter(l => l.level === 'error')).to.have.length(1)
      b.breakWrites(false)
      await store.append([fact(4)])
      expect(store.unwritten).to.equal(0)
      await store.flushed()
      expect(ids(await b.open('k').load())).to.deep.equal(range(0, 5))
      expect(log.lines.some(l => l.level === 'info' && l.text.includes('written again'))).to.equal(true)
    })
  })
}
