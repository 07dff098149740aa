// Schedules through a restart of the plugin (SPEC §25 "exactly once"): a task due while kotodama was
// down fires once when it starts again — the edge starts the runtime because its home holds tasks,
// without any message — and the note says how late; the mind's turn then sends; nothing fires twice.
import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Harness, call, NO_TYPING } from '../support/harness'
import { lastUserText, toolResultsOf } from '../support/fake-openai'
import { fakeClock } from '../support/fake-clock'
import { disposeAndWait, homeOf, plugAgain } from '../support/faults'
import { localTime } from '../../src/schedules/times'

const H = 3_600_000

describe('schedules through a restart (SPEC §25)', function () {
  const installClock = fakeClock()
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('a reminder due while the plugin was stopped fires once at start, 2 h late, without a message', async () => {
    h = await Harness.start({ profile: { typing: NO_TYPING }, budgets: { timezone: 'Europe/Berlin' } })
    const clock = installClock({ toFake: ['Date'], now: Date.now(), shouldAdvanceTime: true })
    const at = localTime(Date.now() + 30 * 60_000, 'Europe/Berlin')
    h.server.script({ toolCalls: [call('schedule', { at, note: 'remind alice: standup' })] }, { toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive('<at id="514"/> remind me of the standup in half an hour')
    await h.server.waitForRequests(2)
    await h.settled()
    const [added] = toolResultsOf(h.server.requests[1]).slice(-1).map(r => JSON.parse(r.content))
    expect(added).to.include({ ok: true, next: at })
    const stored = JSON.parse(await readFile(join(homeOf(h), 'schedules.json'), 'utf8'))
    expect(Object.keys(stored.tasks)).to.deep.equal([added.id])

    await disposeAndWait(h)
    clock.setSystemTime(Date.now() + 2.5 * H)   // down past its time
    h.server.script({ toolCalls: [call('send_message', { messages: ['alice: standup!'] })] })
    await plugAgain(h)
    await h.server.waitForRequests(3, 10_000)
    await h.settled()
    expect(lastUserText(h.server.requests[2])).to.match(new RegExp(`\\[schedule #${added.id}, asked by alice \\(alice\\) on .*: remind alice: standup; 2 h 0 min late\\]`))
    expect(h.sent.map(s => s.content)).to.include('alice: standup!')
    expect(JSON.parse(await readFile(join(homeOf(h), 'schedules.json'), 'utf8'))).to.deep.equal({ tasks: {} })

    // and a second restart fires nothing again
    await disposeAndWait(h)
    await plugAgain(h)
    await h.idle(500)
    expect(h.server.requests).to.have.length(3)
  })
})
