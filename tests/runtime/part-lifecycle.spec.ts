// A runtime's parts live inside its home (issue 37, defects 1 and 2): they read their files only
// once the runtime holds the home (a reload's old instance may still be writing them), a start
// that fails leaves no part running, and from the moment stop begins no part starts a turn.
import { expect } from 'chai'
import { install } from '@sinonjs/fake-timers'
import type { LanguageModelV3, LanguageModelV3GenerateResult } from '@ai-sdk/provider'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { standardWakeEngine } from '../../src/attention/standard-wake'
import { configSchema } from '../../src/runtime/config-of-parts'
import type { Fact } from '../../src/history/entries'
import { VisionCache } from '../../src/model/vision'
import { TextCache } from '../../src/resources/text'
import { Extensions } from '../../src/runtime/extensions'
import { Runtime, type RuntimeOptions } from '../../src/runtime/runtime'
import { Sandbox } from '../../src/sandbox'
import { systemClock } from '../../src/util/clock'

const BOT = 'test:1'
const MIN = 60_000
const quiet = { debug() {}, info() {}, warn() {}, error() {} }
const IDLE = { enabled: true, idleMinutes: 1, jitter: 0, activeHours: '00:00-24:00', timezone: 'UTC' }

/** A model that counts its requests and answers with finish. */
function countingModel(seen: { requests: number }): LanguageModelV3 {
  return {
    specificationVersion: 'v3', provider: 'test', modelId: 'm', supportedUrls: {},
    async doGenerate(): Promise<LanguageModelV3GenerateResult> {
      seen.requests++
      return {
        content: [{ type: 'tool-call', toolCallId: `c${seen.requests}`, toolName: 'finish', input: '{}' }],
        finishReason: { unified: 'tool-calls', raw: undefined }, warnings: [],
        usage: { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } },
      }
    },
    async doStream() {
      throw new Error('not streamed')
    },
  }
}

function options(dataDir: string, seen: { requests: number }, sandbox: Sandbox): RuntimeOptions {
  const model = { id: 'main', baseURL: '', apiKey: '', model: 'm', maxRetries: 0, timeoutMs: 60000 }
  const config = configSchema({
    models: [model],
    profiles: [{ id: 'p', model: 'main', claims: [{ bot: '*', channels: ['*'] }], timing: { debounceMs: 0, debounceMaxMs: 0 }, initiative: IDLE }],
  } as any)
  const extensions = new Extensions()
  extensions.addWakeEngine('standard', standardWakeEngine)
  return {
    profile: config.profiles[0], bot: BOT, dataDir, logger: quiet, extensions, limits: config.codemode, random: Math.random, clock: systemClock,
    platform: { isOnline: () => true, send: async () => ['sent'] },
    models: new Map([['main', { config: config.models[0], model: countingModel(seen) }]]),
    sandbox, vision: new VisionCache(), files: new TextCache(),
  }
}

let n = 0
/** A group message that wakes nobody: it only schedules an idle wake. */
const quietFact = (channel: string): Fact => ({
  id: `m${++n}`, at: Date.now(), bot: BOT, channel, direct: false, user: { id: `u${n}`, name: 'Alice' }, content: 'anyone?',
})

async function idleFile(home: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(join(home, 'initiative.json'), 'utf8')).idle
}

describe('runtime: parts inside the home', function () {
  this.timeout(20000)
  let dir: string
  let sandbox: Sandbox
  const seen = { requests: 0 }
  let clock: ReturnType<typeof install> | undefined
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-parts-'))
    sandbox = new Sandbox()
    seen.requests = 0
  })
  afterEach(async () => {
    clock?.uninstall()
    clock = undefined
    await sandbox.shutdown()
    await rm(dir, { recursive: true, force: true })
  })

  it('a reload: the new runtime reads initiative.json once the old one stopped, so the old one\'s last change is kept', async () => {
    const old = new Runtime(options(dir, seen, sandbox))
    await old.start()
    await old.receive(quietFact('group:room1'))
    await old.written()
    // the next instance is made while the old one still runs (a plugin reload)
    const next = new Runtime(options(dir, seen, sandbox))
    await new Promise(resolve => setTimeout(resolve, 50))
    await old.receive(quietFact('group:room2'))
    await old.stop()
    await next.start()
    await next.receive(quietFact('group:room3'))
    await next.written()
    expect(Object.keys(await idleFile(next.home)).sort()).to.deep.equal(['group:room1', 'group:room2', 'group:room3'])
    await next.stop()
  })

  it('a start that fails leaves no part running: a due idle wake starts no turn on the discarded runtime', async () => {
    const first = new Runtime(options(dir, seen, sandbox))
    await first.start()
    await first.receive(quietFact('group:room1'))
    await first.stop()
    // the home's assets folder is a file now: the next start fails
    await rm(join(first.home, 'assets'), { recursive: true, force: true })
    await writeFile(join(first.home, 'assets'), 'not a folder')
    clock = install({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.now(), shouldAdvanceTime: false, shouldClearNativeTimers: true })
    const broken = new Runtime(options(dir, seen, sandbox))
    let failed: unknown
    await broken.start().catch(e => { failed = e })
    expect(failed, 'the start fails').to.be.an('error')
    for (let i = 0; i < 10; i++) {
      await clock.tickAsync(MIN)
      await new Promise(resolve => setImmediate(resolve))
    }
    expect(seen.requests, 'no model request from a runtime that did not start').to.equal(0)
  })

  it('an idle wake due while the runtime stops starts no turn and loads no conversation', async () => {
    const first = new Runtime(options(dir, seen, sandbox))
    await first.start()
    await first.receive(quietFact('group:room1'))
    await first.stop()
    clock = install({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.now(), shouldAdvanceTime: false, shouldClearNativeTimers: true })
    // a restart with the wake pending and no conversation loaded
    const runtime = new Runtime(options(dir, seen, sandbox))
    await runtime.start()
    // another conversation is loaded: its stop writes its history, the window the wake falls in
    await runtime.receive(quietFact('group:room2'))
    const stopping = runtime.stop()
    await clock.tickAsync(2 * MIN)
    await stopping
    for (let i = 0; i < 10; i++) {
      await clock.tickAsync(MIN)
      await new Promise(resolve => setImmediate(resolve))
    }
    expect(seen.requests, 'no model request after stop').to.equal(0)
    expect((await runtime.loaded()).map(c => c.key), 'no conversation loaded after stop').to.deep.equal(['group:room2'])
  })
})
