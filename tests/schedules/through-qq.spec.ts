// QQ's official API forbids proactive messages (SPEC §19's capability line; bot-docs: none since
// April 2025): through @satorijs/adapter-qq and the fake QQ server, a member's ask for a reminder
// gets ProactiveForbidden, which the mind can relay, and nothing is stored.
import { expect } from 'chai'
import { readdir } from 'node:fs/promises'
import { QQHarness } from '../support/qq-harness'
import { toolResultsOf } from '../support/fake-openai'
import { call } from '../support/harness'

describe('schedules on QQ\'s official API (SPEC §25)', function () {
  let h: QQHarness
  afterEach(async () => { await h?.stop() })

  it('a reminder asked in a group is ProactiveForbidden; no schedules file is written', async () => {
    h = await QQHarness.start()
    h.server.script({ toolCalls: [call('schedule', { at: '2099-01-05 10:00', note: 'meeting' })] }, { toolCalls: [call('finish', {})] })
    h.qq.groupAt({ group: 'G1', member: 'M1', content: ' remind me of the meeting' })
    await h.server.waitForRequests(2)
    await h.settled()
    const [result] = toolResultsOf(h.server.requests[1]).slice(-1).map(r => JSON.parse(r.content))
    expect(result.ok).to.equal(false)
    expect(result.error.name).to.equal('ProactiveForbidden')
    expect(result.error.message).to.include('only in answer to a message')
    const files = await readdir(h.dataDir, { recursive: true })
    expect(files.filter(f => String(f).endsWith('schedules.json'))).to.deep.equal([])
  })
})
