// When it is (SPEC §27): every time the model reads is in budgets.timezone, the turn's `[now: …]` with
// its weekday and the zone's name; '' is the host's zone, named by its IANA name; a zone the host
// lacks is reported with its path and the host's is used. The owner's pause reads the same zone.
// Through the real plugin (plugin-mock, the fake model server) on a fake clock.
import { expect } from 'chai'
import { fakeClock } from '../support/fake-clock'
import { FakeOpenAI, lastUserText, userTexts } from '../support/fake-openai'
import { requestText } from '../support/faults'
import { Harness, NO_TYPING, call } from '../support/harness'

// Wednesday 2026-12-02 16:30 UTC: already Thursday 00:30 in Shanghai, still Wednesday 11:30 in New York
const AT = Date.parse('2026-12-02T16:30:00Z')
const SHANGHAI = { timezone: 'Asia/Shanghai' }
/** the host's zone for these tests (Node.js reads TZ when it changes) */
const HOST = 'America/New_York'

describe('model-facing times in budgets.timezone', () => {
  let h: Harness | undefined
  const installClock = fakeClock()
  const hostTz = process.env.TZ
  beforeEach(() => { process.env.TZ = HOST })
  afterEach(async () => {
    await h?.stop()
    h = undefined
    if (hostTz === undefined) delete process.env.TZ
    else process.env.TZ = hostTz
  })

  /** The user text of the request bob's `hello` makes. */
  async function helloRequest(budgets?: unknown): Promise<string> {
    installClock({ toFake: ['Date'], now: AT, shouldAdvanceTime: true })
    h = await Harness.start({ ...(budgets ? { budgets } : {}), profile: { typing: NO_TYPING } })
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('hello')
    await h.server.waitForRequests(1)
    await h.settled()
    return lastUserText(h.server.requests[0])
  }

  it('Asia/Shanghai: the turn opens with the local date, weekday and time, and the fact line is in local time', async () => {
    const text = await helloRequest(SHANGHAI)
    expect(text).to.match(/^\[2026-12-03 00:30\] bob \(bob\) #\S+: hello$/m)
    expect(text.endsWith('\n[now: 2026-12-03 Thu 00:30 (Asia/Shanghai)]'), text).to.equal(true)
  })

  it("'' is the host's zone, named by its IANA name", async () => {
    const text = await helloRequest()
    expect(text).to.match(/^\[2026-12-02 11:30\] bob \(bob\) #\S+: hello$/m)
    expect(text.endsWith(`\n[now: 2026-12-02 Wed 11:30 (${HOST})]`), text).to.equal(true)
  })

  it("a zone the host lacks is reported as budgets.timezone, and the lines read the host's", async () => {
    const text = await helloRequest({ timezone: 'Mars/Olympus' })
    expect(h!.warnings().some(w => w.includes('budgets.timezone') && w.includes('Mars/Olympus'))).to.equal(true)
    expect(text.endsWith(`\n[now: 2026-12-02 Wed 11:30 (${HOST})]`), text).to.equal(true)
  })

  it('the judge reads the lines of chat in budgets.timezone too', async () => {
    const judge = await FakeOpenAI.start()
    try {
      installClock({ toFake: ['Date'], now: AT, shouldAdvanceTime: true })
      h = await Harness.start({
        budgets: SHANGHAI, profile: { wake: { keywords: ['pizza'], judge: 'small' } },
        extraModels: [{ id: 'small', baseURL: judge.baseURL, apiKey: 'sk-test-judge', model: 'tiny', maxRetries: 0, timeoutMs: 5000 }],
      })
      judge.script({ content: 'no' })
      await h.client('alice', 'room1').receive('who wants pizza tonight')
      await judge.waitForRequests(1)
      await h.settled()
      expect(requestText(judge.requests[0])).to.match(/\[2026-12-03 00:30\] alice \(alice\) #\S+: who wants pizza tonight/)
    } finally {
      await judge.close()
    }
  })

  it("the owner's pause: its answer and the mind's note read budgets.timezone", async () => {
    installClock({ toFake: ['Date'], now: AT, shouldAdvanceTime: true })
    h = await Harness.start({ budgets: SHANGHAI, trust: { owners: ['mock:bob'] }, profile: { typing: NO_TYPING } })
    const bob = h.client('bob', 'room1')
    const [paused] = await bob.receive('kotodama.pause 10')
    expect(paused).to.include('2026-12-03 00:40')
    await bob.receive('kotodama.pause 0')
    h.server.script({ toolCalls: [call('finish', {})] })
    await bob.receive('<at id="514"/> back?')
    await h.server.waitForRequests(1)
    await h.settled()
    expect(userTexts(h.server.requests[0])).to.include('[the owner paused you here until 2026-12-03 00:40; messages are still stored]')
  })
})
