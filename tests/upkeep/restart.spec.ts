// Upkeep through a restart of the plugin (SPEC §26 "a day missed while kotodama was down runs once at
// start"): the edge starts the runtime because its home says upkeep is a day behind (`pending`),
// without any message; the run reads what came since the last one; a second restart runs nothing.
import { expect } from 'chai'
import { fakeClock } from '../support/fake-clock'
import { disposeAndWait, plugAgain } from '../support/faults'
import { chat, firstText, isUpkeep, upkeepOf, upkeepRig } from '../support/upkeep'
import type { Harness } from '../support/harness'

const H = 3_600_000

describe('upkeep through a restart (SPEC §26)', function () {
  this.timeout(30000)
  const installClock = fakeClock()
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('a day missed while down runs once when the plugin starts again, without a message; not again at the next start', async () => {
    h = await upkeepRig({ review: 'owner' }, { budgets: { timezone: 'Europe/Berlin' } })
    const clock = installClock({ toFake: ['Date'], now: Date.now(), shouldAdvanceTime: true })
    await chat(h, [['alice', 'g1', 'first day']])
    h.server.script({ content: 'nothing' })
    await (await upkeepOf(h)).run('test')
    await chat(h, [['alice', 'g1', 'I started a pottery class tonight']])
    const before = h.server.requests.filter(isUpkeep).length

    await disposeAndWait(h)
    clock.setSystemTime(Date.now() + 30 * H)   // down past the next 04:00
    h.server.script({ content: 'nothing to keep' })
    await plugAgain(h)
    await h.until(() => h.server.requests.filter(isUpkeep).length > before, 'the missed day\'s run', 10_000)
    const up = await upkeepOf(h)
    // the request is seen before the run records itself
    await h.until(() => up.runs().at(-1)?.reason === 'missed', 'the missed run recorded', 10_000)
    const missed = h.server.requests.filter(isUpkeep).slice(before)
    expect(missed).to.have.length(1)
    expect(firstText(missed[0])).to.include('pottery class').and.not.include('first day')
    expect(up.runs().at(-1)).to.include({ reason: 'missed', requests: 1 })

    await disposeAndWait(h)
    await plugAgain(h)
    await h.idle(500)
    expect(h.server.requests.filter(isUpkeep)).to.have.length(before + 1)
  })
})
