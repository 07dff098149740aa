// Who runs kotodama's commands (SPEC §22, issue 36 finding 11): Koishi checks a command's authority
// only when a database keeps users; without one, each command answers only `trust.owners` and
// refuses a plain member, whose words change nothing. kotodama.reset names another conversation
// only for an owner (trust.owners, or authority 4 with a database). Driven through plugin-mock.
import { expect } from 'chai'
import { Harness, call } from '../support/harness'
import { memoryDatabase } from '../support/databases'
import { requestText } from '../support/faults'

const REFUSED = 'Only the owner may use kotodama commands here'

describe('kotodama commands without a database (SPEC §22)', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  /** alice told the mind something in private; returns when that turn is done */
  async function aliceTalked() {
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice').receive('my secret is 4711')
    await h.server.waitForRequests(1)
    await h.settled()
  }

  it('a plain member in a group is refused every command, and nothing happens', async () => {
    h = await Harness.start({ trust: { owners: ['mock:boss'] } })
    await aliceTalked()
    const mallory = h.client('mallory', 'room1')
    for (const command of ['kotodama.status', 'kotodama.reset private:alice', 'kotodama.pause 600', 'kotodama.migrate database', 'kotodama']) {
      const replies = await mallory.receive(command)
      expect(replies, command).to.have.length(1)
      expect(replies[0], command).to.include(REFUSED)
      expect(replies[0], command).to.not.include('private:alice')
    }
    // not paused: a mention still wakes the mind
    h.server.script({ toolCalls: [call('finish', {})] })
    await mallory.receive('<at id="514"/> are you there?')
    await h.server.waitForRequests(2)
    await h.settled()
    // alice's history is where it was
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice').receive('what is my secret?')
    await h.server.waitForRequests(3)
    expect(requestText(h.server.requests[2])).to.include('my secret is 4711')
  })

  it('an owner of trust.owners runs them: status, pause, and a reset that names another conversation', async () => {
    h = await Harness.start({ trust: { owners: ['mock:boss'] } })
    await aliceTalked()
    const boss = h.client('boss', 'room1')
    const [status] = await boss.receive('kotodama.status')
    expect(status).to.match(/profile neko on mock:514/).and.include('private:alice')
    expect((await boss.receive('kotodama.pause 10'))[0]).to.include('Paused here until')
    expect((await boss.receive('kotodama.pause 0'))[0]).to.include('may speak here again')
    expect((await boss.receive('kotodama.reset private:alice'))[0]).to.include('Forgot conversation private:alice')
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice').receive('what is my secret?')
    await h.server.waitForRequests(2)
    expect(requestText(h.server.requests[1])).to.not.include('my secret is 4711')
  })

  it('a malformed trust.owners entry is reported with its path and left out; the others stay owners', async () => {
    h = await Harness.start({ trust: { owners: ['mock:boss', 'boss', 'mock: boss'] } })
    expect(h.warnings().join('\n')).to.include('config trust.owners[1]').and.include('config trust.owners[2]')
    expect(h.warnings().join('\n')).to.not.include('trust.owners[0]')
    expect((await h.client('boss').receive('kotodama.status'))[0]).to.not.include(REFUSED)
  })
})

describe('kotodama.reset with a database (SPEC §22)', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('authority 3 resets the conversation where it is written, never another one; authority 4 may name another', async () => {
    h = await Harness.start({ database: memoryDatabase() })
    await h.app.mock.initUser('mod', 3)
    await h.app.mock.initUser('admin', 4)
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice').receive('my secret is 4711')
    await h.server.waitForRequests(1)
    await h.settled()
    const [named] = await h.client('mod', 'room1').receive('kotodama.reset private:alice')
    expect(named).to.include('Only the owner may reset another conversation').and.include('group:room1')
    const [here] = await h.client('mod', 'room1').receive('kotodama.reset')
    expect(here).to.match(/group:room1/)
    const [done] = await h.client('admin', 'room1').receive('kotodama.reset private:alice')
    expect(done).to.include('Forgot conversation private:alice')
  })
})
