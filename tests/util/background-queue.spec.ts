import { expect } from 'chai'
import { BackgroundQueue, Dropped } from '../../src/util/background-queue'

/** A task that runs until its `release` is called, counting how many run at once. */
function gate() {
  const stats = { open: 0, peak: 0, started: [] as string[] }
  const releases = new Map<string, () => void>()
  const task = (name: string) => (signal: AbortSignal) => new Promise<string>((resolve, reject) => {
    stats.started.push(name)
    stats.peak = Math.max(stats.peak, ++stats.open)
    const done = (f: () => void) => () => { stats.open--; f() }
    releases.set(name, done(() => resolve(name)))
    signal.addEventListener('abort', done(() => reject(signal.reason)))
  })
  const release = async (name: string) => {
    releases.get(name)!()
    await new Promise(r => setImmediate(r))
  }
  return { stats, task, release }
}

const tick = () => new Promise(r => setImmediate(r))

describe('the background queue', () => {
  it('runs at most `concurrency` tasks at once, the others in the order they came', async () => {
    const q = new BackgroundQueue({ concurrency: 2, maxWaiting: 10 })
    const g = gate()
    const results = ['a', 'b', 'c', 'd'].map(n => q.run(g.task(n)))
    await tick()
    expect(g.stats.started).to.deep.equal(['a', 'b'])
    await g.release('b')
    expect(g.stats.started).to.deep.equal(['a', 'b', 'c'])
    await g.release('a')
    await g.release('c')
    await g.release('d')
    expect(await Promise.all(results)).to.deep.equal(['a', 'b', 'c', 'd'])
    expect(g.stats.peak).to.equal(2)
    expect(q.peak).to.equal(2)
  })

  it('past maxWaiting drops the oldest waiting by default, and tells its owner once', async () => {
    let told = 0
    const q = new BackgroundQueue({ concurrency: 1, maxWaiting: 2, onFull: () => told++ })
    const g = gate()
    const results = ['a', 'b', 'c', 'd', 'e'].map(n => q.run(g.task(n)).catch(e => e))
    expect(q.size).to.deep.equal({ waiting: 2, running: 1 })
    expect(q.dropped).to.equal(2)
    expect(told).to.equal(1)
    await tick()
    for (const n of ['a', 'd', 'e']) await g.release(n)
    const got = await Promise.all(results)
    expect(got[1]).to.be.instanceOf(Dropped).and.include({ why: 'full' })
    expect(got[2]).to.be.instanceOf(Dropped)
    expect([got[0], got[3], got[4]]).to.deep.equal(['a', 'd', 'e'])
  })

  it("with drop: 'newest', the task being added is the one dropped", async () => {
    const q = new BackgroundQueue({ concurrency: 1, maxWaiting: 1, drop: 'newest' })
    const g = gate()
    const results = ['a', 'b', 'c'].map(n => q.run(g.task(n)).catch(e => e))
    await tick()
    for (const n of ['a', 'b']) await g.release(n)
    const got = await Promise.all(results)
    expect(got.slice(0, 2)).to.deep.equal(['a', 'b'])
    expect(got[2]).to.be.instanceOf(Dropped)
    expect(g.stats.started).to.deep.equal(['a', 'b'])
  })

  it('a task that throws rejects its own promise only: the next ones run', async () => {
    const q = new BackgroundQueue({ concurrency: 1, maxWaiting: 10 })
    const failing = q.run(async () => { throw new Error('boom') })
    const sync = q.run((() => { throw new Error('at once') }) as any)
    const next = q.run(async () => 'next')
    expect(await failing.catch(e => e.message)).to.equal('boom')
    expect(await sync.catch(e => e.message)).to.equal('at once')
    expect(await next).to.equal('next')
    await q.idle()
  })

  it('stop drops what waits, aborts what runs, and refuses later tasks', async () => {
    const q = new BackgroundQueue({ concurrency: 1, maxWaiting: 10 })
    const g = gate()
    const running = q.run(g.task('a')).catch(e => e)
    const waiting = q.run(g.task('b')).catch(e => e)
    await tick()
    q.stop()
    expect(await waiting).to.be.instanceOf(Dropped).and.include({ why: 'stopped' })
    expect((await running).message).to.match(/stopped/)
    expect(await q.run(g.task('c')).catch(e => e)).to.be.instanceOf(Dropped)
    expect(g.stats.started).to.deep.equal(['a'])
    expect(g.stats.open).to.equal(0)
    await q.idle()
  })

  it('a key already queued is not queued twice; settled waits for it', async () => {
    const q = new BackgroundQueue({ concurrency: 1, maxWaiting: 10 })
    const g = gate()
    const first = q.run(g.task('x'), 'x')
    const again = q.run(g.task('x2'), 'x')
    let settled = false
    void q.settled('x').then(() => { settled = true })
    await tick()
    expect(settled).to.equal(false)
    await g.release('x')
    expect(await first).to.equal('x')
    expect(await again).to.equal('x')
    expect(settled).to.equal(true)
    expect(g.stats.started).to.deep.equal(['x'])
  })
})
