// Nothing writes after the plugin was disposed (issue 21): a test app's temporary home was once
// re-created after its teardown, holding only usage/<day>.json. Dispose waits for every runtime,
// also one already stopping because its bot went away in the middle of a send, and a usage book
// that was stopped never writes again.
import { expect } from 'chai'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { Harness, call, typingBetween } from '../support/harness'
import { disposeAndWait, homeOf } from '../support/faults'
import { UsageBook } from '../../src/usage/book'
import { systemClock } from '../../src/util/clock'

/** Every file under `dir` with its size and change time. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true }).catch((): never[] => [])) {
      const p = join(d, e.name)
      if (e.isDirectory()) await walk(p)
      else {
        const s = await stat(p)
        out[p.slice(dir.length)] = `${s.size}@${s.mtimeMs}`
      }
    }
  }
  await walk(dir)
  return out
}

const SLOW_TYPING = typingBetween(700)

describe('faults: nothing writes after dispose (issue 21)', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('a runtime stopping because its bot went offline mid-send is waited for; the home does not change after dispose', async () => {
    h = await Harness.start({ profile: { typing: SLOW_TYPING } })
    h.server.script({ toolCalls: [call('send_message', { messages: ['one', 'two', 'three'] })] })
    await h.client('alice', 'room1').receive('<at id="514"/> count to three')
    await h.until(() => h.sent.length === 1, 'the first message')
    h.app.bots[0].offline()          // the runtime starts stopping: it waits for its sends
    await h.idle(20)
    await disposeAndWait(h)
    const home = homeOf(h)
    const before = await tree(home)
    expect(Object.keys(before).some(p => p.startsWith('/usage/')), 'the usage book was flushed during dispose').to.equal(true)
    await h.idle(2000)               // the sends would have settled, their step been written
    expect(await tree(home)).to.deep.equal(before)
    h.fork = undefined as any        // already disposed
  })

  it('a usage book that was stopped never writes again, whatever is recorded after', async () => {
    const dir = join(await import('node:os').then(o => o.tmpdir()), `kotodama-usage-${process.pid}-${Date.now()}`)
    const clock = {
      ...systemClock,
      setTimeout: (fn: () => void) => { const t = setTimeout(fn, 10); return { cancel: () => clearTimeout(t), unref() { return this } } },
    } as any
    const book = new UsageBook(dir, clock, console as any)
    book.record('main', { model: 'main', latencyMs: 1, promptTokens: 10 }, true)
    await book.stop()
    const before = await tree(dir)
    expect(Object.keys(before)).to.have.length(1)
    book.record('main', { model: 'main', latencyMs: 1, promptTokens: 10 }, true)
    await new Promise(r => setTimeout(r, 50))
    expect(await tree(dir)).to.deep.equal(before)
    expect(book.snapshot()[0].total.requests, 'the late count is still counted in memory').to.equal(2)
  })
})
