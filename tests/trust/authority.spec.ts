// The Koishi user authority (SPEC §22 "Who may steer it"; docs/security.md): where a database keeps
// users, authority 4 or more is the bot owner's, 3 a group admin's anywhere; looked up only when an
// act needs a role. plugin-mock gives no group roles, so only the authority decides here.
import { expect } from 'chai'
import { z } from 'zod'
import { Harness, call } from '../support/harness'
import { memoryDatabase } from '../support/databases'
import { toolResultsOf } from '../support/fake-openai'
import { allowed, notAllowed } from '../../src/trust/permission'

describe('trust: Koishi authority with a database', function () {
  this.timeout(20000)
  let h: Harness
  let done: string[]
  afterEach(async () => { await h?.stop() })

  beforeEach(async () => {
    h = await Harness.start({ database: memoryDatabase(), trust: { owners: [], tools: ['wipe_notes'] } })
    done = []
    h.app.plugin({
      name: 'acts', inject: ['kotodama'],
      apply: (ctx: any) => {
        ctx.kotodama.registerTool('wipe_notes', () => ({
          description: 'Delete every note', inputSchema: z.object({}), execute: async () => { done.push('wipe'); return { ok: true } },
        }))
        ctx.kotodama.registerTool('pin_message', () => ({
          description: 'Pin a message', inputSchema: z.object({}),
          execute: async (_: unknown, c: any) => {
            if (!await allowed(c.turn, 'admin')) return notAllowed('admin', 'pinning')
            done.push('pin')
            return { ok: true }
          },
        }))
      },
    })
    await h.idle(50)
    for (const [id, authority] of [['bob', 4], ['carol', 3], ['dave', 1]] as const) await h.app.database.createUser('mock', id, { authority })
  })

  async function asks(user: string, n: number): Promise<string[]> {
    h.server.script({ toolCalls: [call('wipe_notes', {}), call('pin_message', {})] }, { toolCalls: [call('finish', {})] })
    await h.client(user, 'room1').receive('<at id="514"/> wipe the notes and pin this')
    await h.server.waitForRequests(n)
    await h.settled()
    return toolResultsOf(h.server.requests[n - 1]).slice(-2).map(r => JSON.parse(r.content).ok ? 'ok' : JSON.parse(r.content).error.name)
  }

  it('authority 4 runs the owner-only tool, 3 the admin act only, 1 neither', async () => {
    expect(await asks('bob', 2)).to.deep.equal(['ok', 'ok'])
    expect(await asks('carol', 4)).to.deep.equal(['NotAllowed', 'ok'])
    expect(await asks('dave', 6)).to.deep.equal(['NotAllowed', 'NotAllowed'])
    expect(done).to.deep.equal(['wipe', 'pin', 'pin'])
  })
})
