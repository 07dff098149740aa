// SPEC §25 bounds against a program that asks for 1,000 tasks at once (issue 41, "bad input"):
// through the real plugin, codemode's QuickJS sandbox and the schedule tool, the tasks stored are
// the bounds' worth, the rest refused with TooMany, and the file holds only those.
import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runtimeHome } from '../../src/runtime/runtime'
import { SCHEDULES_FILE } from '../../src/schedules/file-store'
import { Harness, call } from '../support/harness'
import { toolResultsOf } from '../support/fake-openai'

describe('schedules: 1,000 tasks asked in one program (SPEC §25)', function () {
  let h: Harness | undefined
  afterEach(async () => {
    await h?.stop()
    h = undefined
  })

  const THOUSAND = `
    const asked = Array.from({ length: 1000 }, (_, i) => tools.schedule({ at: '2030-01-01 09:00', note: 'ping ' + i }))
    const got = await Promise.all(asked)
    return { ok: got.filter(r => r.ok).length, tooMany: got.filter(r => !r.ok && r.error.name === 'TooMany').length }`

  it('Promise.all of 1,000 schedule calls: perUser (5) stored, 995 TooMany, 5 in schedules.json', async () => {
    // the owner lets a program make 2,000 tool calls: the schedule's own bounds must hold
    h = await Harness.start({ profile: { codemode: { enabled: true, direct: [] } }, codemode: { maxToolCalls: 2000 } })
    h.server.script({ toolCalls: [call('codemode', { code: THOUSAND })] }, { toolCalls: [call('finish', {})] })
    await h.client('bob').receive('remind me, a lot')
    await h.server.waitForRequests(2)
    await h.settled()
    const out = JSON.parse(toolResultsOf(h.server.requests[1]).at(-1).content)
    expect(out).to.deep.equal({ ok: 5, tooMany: 995 })
    // each add answers once stored: the file holds what the program was told
    const file = JSON.parse(await readFile(join(runtimeHome(h.dataDir, 'neko', 'mock:514'), SCHEDULES_FILE), 'utf8'))
    expect(Object.keys(file.tasks)).to.have.length(5)
  })
})
