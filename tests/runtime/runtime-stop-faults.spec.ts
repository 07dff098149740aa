// A runtime that stops while a message is on its way into it (a migration, a bot that went away
// and came back) must not take the message with it: the next runtime stores it.
import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Harness } from '../support/harness'

describe('a runtime stopping under an incoming message', () => {
  let h: Harness
  afterEach(() => h?.stop())

  it('hands the message to the next runtime; nothing is lost', async () => {
    h = await Harness.start({ profile: { claims: [{ bot: '*', channels: ['group:*'] }] } })
    const alice = h.client('alice', 'room')
    await alice.receive('first')
    await h.settled()
    const [first] = await h.app.kotodama.list()
    // the runtime stops between taking the message and storing it
    const receive = first.receive.bind(first)
    first.receive = async fact => {
      ;(h.app.kotodama as any).runtimes.stopWhere((r: any) => r.bot === 'mock:514')
      await first.stop()
      return receive(fact)
    }
    await alice.receive('second')
    const file = join(h.dataDir, 'neko', 'mock', '514', 'conversations', 'group%3Aroom.jsonl')
    const facts = async () => (await readFile(file, 'utf8')).trim().split('\n').map(l => JSON.parse(l)).filter(e => e.type === 'fact').map(e => e.fact.content)
    // the message goes to a runtime that starts after this one stopped: wait for it to be written
    for (let i = 0; i < 200 && (await facts()).length < 2; i++) await h.idle(10)
    expect(await facts()).to.deep.equal(['first', 'second'])
    const [next] = await h.app.kotodama.list()
    expect(next).to.not.equal(first)
    expect(h.warnings().filter(w => /could not be stored/.test(w))).to.deep.equal([])
  })
})
