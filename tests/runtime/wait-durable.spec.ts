// Durable waits (SPEC §15): a pending wait is stored in the history and listed in the runtime
// home's waits.json; after a restart it is pending again without anyone writing, a time window
// that passed while the plugin was down fires once at start with a late note, and nothing is
// restored once the wait fired or a new turn started. On files and on the database alike.
import { expect } from 'chai'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Harness, call, type HarnessOptions, NO_TYPING, typingBetween } from '../support/harness'
import { lastUserText } from '../support/fake-openai'
import { disposeAndWait, homeOf, plugAgain, readHistory, readHistoryWhen } from '../support/faults'
import { WaitIndex } from '../../src/runtime/durable-waits'
import { transcript } from '../../src/console-data/transcript'
import { memoryDatabase } from '../support/databases'
import { fakeClock, type InstalledClock } from '../support/fake-clock'

const SLOW_TYPING = typingBetween(700)

describe('durable waits (SPEC §15)', function () {
  let h: Harness
  let clock: InstalledClock | undefined
  const installClock = fakeClock()
  afterEach(async () => { await h?.stop() })

  const start = async (o: HarnessOptions = {}) => { h = await Harness.start({ profile: { typing: NO_TYPING }, ...o }) }

  /** The pending waits of the running runtime's conversations, by key. */
  async function waits(): Promise<Record<string, any>> {
    const out: Record<string, any> = {}
    for (const r of await h.app.kotodama.list()) for (const c of await r.status()) if (c.wait) out[c.key] = c.wait
    return out
  }

  /** Resolves when the running runtimes show `n` pending waits (a restart restores them without a message). */
  async function restored(n: number): Promise<Record<string, any>> {
    const started = Date.now()
    for (;;) {
      const w = await waits()
      if (Object.keys(w).length === n) return w
      if (Date.now() - started > 5000) throw new Error(`expected ${n} pending waits, have ${JSON.stringify(w)}`)
      await h.idle(10)
    }
  }

  async function index(): Promise<Record<string, any>> {
    return JSON.parse(await readFile(join(homeOf(h), 'waits.json'), 'utf8')).waits
  }

  /** Stops the plugin, lets `ms` of (faked) time pass, and starts it again: nobody writes meanwhile. */
  async function restart(ms = 0): Promise<void> {
    await disposeAndWait(h)
    if (ms) clock!.setSystemTime(clock!.now + ms)
    await plugAgain(h)
  }

  it('a time wait survives a restart and fires at its time, with the usual note', async () => {
    await start()
    clock = installClock({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.now(), shouldAdvanceTime: false, shouldClearNativeTimers: true })
    h.server.script({ toolCalls: [call('wait', { seconds: 60 })] }, { toolCalls: [call('finish', {})] })
    await h.client('bob').receive('ping me in a minute')
    await h.server.waitForRequests(1)
    await h.settled()
    const armedAt = (await waits())['private:bob'].armedAt
    await clock.tickAsync(20_000)
    await h.reload()
    // pending again without a message, counted from when it was armed
    expect((await restored(1))['private:bob']).to.deep.include({ seconds: 60, armedAt })
    await clock.tickAsync(39_000)
    await h.idle(30)
    expect(h.server.requests).to.have.length(1)
    await clock.tickAsync(1_500)
    await h.server.waitForRequests(2)
    const text = lastUserText(h.server.requests[1])
    expect(text).to.include('[wake: the 60 s you chose to wait have passed]')
    expect(text).to.not.include('late')
    await h.settled()
    expect(await index()).to.deep.equal({})
    // it fired: the next restart restores nothing
    await h.reload()
    await h.idle(100)
    expect(await h.app.kotodama.list()).to.deep.equal([])
    expect(h.server.requests).to.have.length(2)
  })

  it('a message wait survives a restart and counts the messages before and after it', async () => {
    await start()
    h.server.script({ toolCalls: [call('wait', { messages: 3 })] }, { toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive('<at id="514"/> tell me when three more people talked')
    await h.server.waitForRequests(1)
    await h.settled()
    await h.client('carol', 'room1').receive('one')
    await h.idle(30)
    await h.settled()
    await h.reload()
    expect((await restored(1))['group:room1']).to.deep.include({ messages: 3, factsSeen: 1 })
    await h.client('dave', 'room1').receive('two')
    await h.idle(50)
    expect(h.server.requests).to.have.length(1)
    await h.client('erin', 'room1').receive('three')
    await h.server.waitForRequests(2)
    const text = lastUserText(h.server.requests[1])
    expect(text).to.include('[wake: 3 new messages arrived since you chose to wait]')
    for (const t of ['one', 'two', 'three']) expect(text).to.include(t)
  })

  it('a time window that passed while the plugin was down fires once at start, late, and only once', async () => {
    await start()
    clock = installClock({ toFake: ['Date'], now: Date.now(), shouldAdvanceTime: false, shouldClearNativeTimers: true })
    h.server.script({ toolCalls: [call('wait', { seconds: 600 })] }, { toolCalls: [call('finish', {})] })
    await h.client('bob').receive('check on me in ten minutes')
    await h.server.waitForRequests(1)
    await h.settled()
    await restart(20 * 60_000)
    await h.server.waitForRequests(2)
    expect(lastUserText(h.server.requests[1]))
      .to.include('[wake: the 600 s you chose to wait have passed; kotodama was not running when they ended, so this wake-up comes 10 min late]')
    await h.settled()
    const history = await readHistoryWhen(h, 'private:bob', r => r.entries.some(e => e.type === 'turn' && e.turn === 2))
    expect(history.entries.filter(e => e.type === 'wait')).to.have.length(1)
    expect(history.entries.find(e => e.type === 'turn' && e.turn === 2)).to.deep.include({ reason: 'wait:time', late: true })
    expect(history.entries.find(e => e.type === 'turn' && e.turn === 1)).to.not.have.property('late')
    // the console shows the wait as a note and the late turn as late
    const items = transcript({ key: 'private:bob', entries: history.entries, busy: false }).items
    expect(items.find(i => i.kind === 'wait')).to.deep.include({ kind: 'wait', seconds: 600 })
    expect(items.filter(i => i.kind === 'turn').map(i => (i as any).late)).to.deep.equal([undefined, true])
    await restart(60 * 60_000)
    await h.idle(200)
    expect(h.server.requests).to.have.length(2)
    expect(await h.app.kotodama.list()).to.deep.equal([])
  })

  it('a wait cancelled by a new turn is not restored; another conversation\'s pending one is', async () => {
    await start()
    h.server.script(
      { toolCalls: [call('wait', { seconds: 600 })] },
      { toolCalls: [call('wait', { seconds: 900, messages: 5 })] },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('bob').receive('wait for me')
    await h.server.waitForRequests(1)
    await h.settled()
    await h.client('carol').receive('and for me')
    await h.server.waitForRequests(2)
    await h.settled()
    await h.client('bob').receive('no need, I am here')
    await h.server.waitForRequests(3)
    await h.settled()
    expect(Object.keys(await waits())).to.deep.equal(['private:carol'])
    const armedAt = (await waits())['private:carol'].armedAt
    await h.reload()
    expect(await restored(1)).to.have.keys('private:carol')
    expect((await waits())['private:carol']).to.deep.include({ seconds: 900, messages: 5, armedAt, factsSeen: 0 })
    expect(Object.keys(await index())).to.deep.equal(['private:carol'])
  })

  it('a bot that comes back online gets its pending waits back without a message', async () => {
    await start()
    h.server.script({ toolCalls: [call('wait', { seconds: 600 })] })
    await h.client('bob').receive('hold on')
    await h.server.waitForRequests(1)
    await h.settled()
    const armedAt = (await waits())['private:bob'].armedAt
    const bot = h.app.bots[0]
    bot.offline()
    await h.idle(50)
    expect(await h.app.kotodama.list()).to.deep.equal([])
    bot.online()
    expect((await restored(1))['private:bob']).to.deep.include({ seconds: 600, armedAt })
  })

  it('on storage: database too, a wait that passed while down fires late at start', async () => {
    await start({ storage: 'database', database: memoryDatabase() })
    clock = installClock({ toFake: ['Date'], now: Date.now(), shouldAdvanceTime: false, shouldClearNativeTimers: true })
    h.server.script({ toolCalls: [call('wait', { seconds: 120 })] }, { toolCalls: [call('finish', {})] })
    await h.client('bob').receive('two minutes, please')
    await h.server.waitForRequests(1)
    await h.settled()
    await restart(3 * 60 * 60_000 + 5 * 60_000)
    await h.server.waitForRequests(2)
    expect(lastUserText(h.server.requests[1])).to.include('so this wake-up comes 3 h 3 min late]')
    await h.settled()
    await restart(60_000)
    await h.idle(200)
    expect(h.server.requests).to.have.length(2)
  })

  it('a wait declared by a turn that ends during dispose is in the history and the index before dispose ends, and nothing is written after', async () => {
    await start({ profile: { typing: SLOW_TYPING } })
    h.server.script({ toolCalls: [call('send_message', { messages: ['one', 'two'] }), call('wait', { seconds: 600, messages: 2 })] })
    await h.client('bob').receive('count to two, then wait')
    await h.until(() => h.sent.length === 1, 'the first message')
    await disposeAndWait(h)          // the send settles, the turn ends, its wait is stored
    const path = join(homeOf(h), 'waits.json')
    const written = await readFile(path, 'utf8')
    expect(JSON.parse(written).waits['private:bob']).to.deep.include({ seconds: 600, messages: 2 })
    const history = await readHistory(h, 'private:bob')
    expect(history.entries.at(-1)).to.deep.include({ type: 'wait', seconds: 600, messages: 2 })
    const before = (await stat(path)).mtimeMs
    await h.idle(300)
    expect((await stat(path)).mtimeMs).to.equal(before)
    await plugAgain(h)
    expect(await restored(1)).to.have.keys('private:bob')
  })

  it('the index: a stop waits for the write in flight, and nothing is written after it', async () => {
    const home = await mkdtemp(join(tmpdir(), 'kotodama-waits-'))
    const logs: string[] = []
    const logger = { warn: (...a: unknown[]) => logs.push(a.join(' ')), info() {}, debug() {}, error() {} } as any
    try {
      const index = new WaitIndex(home, logger)
      await index.load()
      index.set('private:bob', { at: 1, seconds: 60 })
      await index.stop()
      const written = await readFile(join(home, 'waits.json'), 'utf8')
      expect(JSON.parse(written).waits).to.deep.equal({ 'private:bob': { at: 1, seconds: 60 } })
      index.set('private:carol', { at: 2, messages: 1 })
      index.delete('private:bob')
      await new Promise(r => setTimeout(r, 50))
      expect(await readFile(join(home, 'waits.json'), 'utf8')).to.equal(written)
      expect(logs).to.deep.equal([])
    } finally {
      await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 })
    }
  })

  it('a corrupt waits.json is a warning, not a stop: the runtime answers and the index is rewritten', async () => {
    await start()
    h.server.script({ toolCalls: [call('wait', { seconds: 600 })] }, { toolCalls: [call('finish', {})] })
    await h.client('bob').receive('hello')
    await h.server.waitForRequests(1)
    await h.settled()
    await disposeAndWait(h)
    await writeFile(join(homeOf(h), 'waits.json'), '{"waits": {"private:bob": ')
    await plugAgain(h)
    await h.until(() => h.warnings().some(w => /waits index .*waits\.json is not valid/.test(w)), 'the warning')
    // the history still holds the wait: the conversation's next load re-arms it, and a message cancels it as usual
    await h.client('bob').receive('are you there?')
    await h.server.waitForRequests(2)
    await h.settled()
    expect(lastUserText(h.server.requests[1])).to.include('are you there?')
    // the index is written behind the turn: wait for it (a busy machine writes later)
    await h.until(async () => Object.keys(await index()).length === 0, 'the waits index emptied', 3000)
    expect(await index()).to.deep.equal({})
  })
})
