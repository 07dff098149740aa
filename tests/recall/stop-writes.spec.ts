// Nothing of recall is written after its runtime stopped (issue 37, defect 6b): messages still on
// their way into the indexes when the runtime stops (a batch waiting for its quiet time, indexes
// open, closed indexes' logs) neither open an index nor append to a log once the home is gone.
import { expect } from 'chai'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Harness } from '../support/harness'
import { runtimeHome } from '../../src/runtime/runtime'
import { ConvIndex } from '../../src/recall/conv-index'
import type { RecallDoc } from '../../src/recall/docs'

const quiet = { debug() {}, info() {}, warn() {}, error() {} }
const doc = (n: number): RecallDoc => ({ k: `f:g:${n}`, id: String(n), at: Date.UTC(2026, 0, 1) + n, who: 'ann', uid: 'ann', ch: 'g', text: `message ${n}` })

describe('recall: no write after stop (SPEC §17)', function () {
  this.timeout(60000)
  let h: Harness | undefined
  afterEach(async () => {
    await h?.stop()
    h = undefined
  })

  it('an index takes nothing once it closes: an add right after close() is neither indexed nor logged', async function () {
    const dir = await mkdtemp(join(tmpdir(), 'kotodama-recall-close-'))
    try {
      const idx = await ConvIndex.open(dir, quiet)
      await idx.add([doc(0), doc(1)])
      const closing = idx.close()
      const late = idx.add([doc(2)])
      await closing
      await late
      expect(idx.count).to.equal(2)
      const log = await readFile(join(dir, 'live.log'), 'utf8')
      expect(log.split('\n').filter(Boolean)).to.have.length(2)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  /** Messages in `rooms` group chats, not waited for. */
  const say = (rooms: number, round: number) => {
    const sends: Promise<unknown>[] = []
    for (let c = 0; c < rooms; c++) sends.push(h!.client(`u${c % 3}`, `room${c}`).receive(`round ${round}: the ferry leaves at nine from pier ${c}`))
    return Promise.all(sends)
  }

  // More rooms than indexes open at once (16): open indexes, closed ones caught up, and rooms never
  // indexed. The plugin's dispose does not wait for its runtimes' stop: their home may go first
  // (`removed: 'before'`: it went before the runtime reached recall) or while they stop (after `delayMs`).
  const runs: { removed: 'before' | 'during'; delayMs: number }[] = [
    { removed: 'before', delayMs: 0 }, { removed: 'before', delayMs: 0 }, { removed: 'before', delayMs: 0 },
    { removed: 'during', delayMs: 0 }, { removed: 'during', delayMs: 1 }, { removed: 'during', delayMs: 5 },
  ]
  runs.forEach(({ removed, delayMs }, n) => {
    it(`stopped while appends are on their way, its home removed ${removed} the stop: no recall folder comes back (run ${n + 1})`, async function () {
      h = await Harness.start()
      await say(20, 1)
      await h.settled()
      const [runtime] = await h.app.kotodama.list()
      await runtime.written()
      await say(24, 2)
      // stored in their histories; recall holds them in its batches, not yet in an index
      await h.app.kotodama.received()
      const home = runtimeHome(h.dataDir, 'neko', 'mock:514')
      const remove = () => rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 })
      if (removed === 'before') await remove()
      const stopping = runtime.stop()
      if (delayMs) await new Promise(r => setTimeout(r, delayMs))
      if (removed === 'during') await remove()
      await stopping
      await new Promise(r => setTimeout(r, 100))
      expect(existsSync(join(home, 'recall')), 'the recall folder was made again after stop').to.equal(false)
    })
  })
})
