// A bot in more channels than the process keeps in memory (issue 15): idle conversations are
// unloaded and come back from their history when they are needed, as after a restart.
import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Harness, call } from '../support/harness'
import { lastUserText } from '../support/fake-openai'
import { LoadedConversations } from '../../src/runtime/loaded-conversations'

describe('conversations kept in memory', () => {
  let h: Harness
  afterEach(() => h?.stop())

  async function start(max: number) {
    h = await Harness.start()
    ;(h.app.kotodama as any).loaded = new LoadedConversations(max)
  }
  const loadedKeys = async () => (await (await h.app.kotodama.list())[0].status()).map(c => c.key).sort()
  const history = async (key: string) => (await readFile(join(h.dataDir, 'neko', 'mock', '514', 'conversations', `${encodeURIComponent(key)}.jsonl`), 'utf8'))
    .trim().split('\n').map(l => JSON.parse(l))

  it('keeps at most the budget of idle conversations; an unloaded one continues where it left off', async () => {
    await start(2)
    h.server.script(
      { toolCalls: [call('send_message', { messages: ['plum, noted'] })] },
      { toolCalls: [call('send_message', { messages: ['it was plum'] })] },
    )
    const alice = h.client('alice', 'room0')
    await alice.receive('<at id="514"/> remember the word plum')
    await h.server.waitForRequests(1)
    await h.settled()
    for (let i = 1; i <= 4; i++) await h.client(`u${i}`, `room${i}`).receive(`small talk in room ${i}`)
    await h.settled()
    expect(await loadedKeys()).to.deep.equal(['group:room3', 'group:room4'])

    await alice.receive('<at id="514"/> what was the word?')
    await h.server.waitForRequests(2)
    await h.settled()
    const seen = JSON.stringify(h.server.requests[1].body.messages)
    expect(seen).to.include('remember the word plum').and.include('plum, noted')
    expect(lastUserText(h.server.requests[1])).to.include('what was the word?')
    expect(h.sent.map(s => s.content)).to.deep.equal(['plum, noted', 'it was plum'])
    // the turn numbers go on from the history, and every fact of every channel is on disk once
    expect((await history('group:room0')).filter(e => e.type === 'turn').map(e => e.turn)).to.deep.equal([1, 2])
    for (let i = 1; i <= 4; i++) expect((await history(`group:room${i}`)).filter(e => e.type === 'fact')).to.have.length(1)
  })

  it('a conversation with a pending wait stays loaded, and its wait still wakes it', async () => {
    await start(1)
    h.server.script({ toolCalls: [call('wait', { messages: 1 })] }, { toolCalls: [call('finish', {})] })
    const alice = h.client('alice', 'room0')
    await alice.receive('<at id="514"/> tell me when someone answers')
    await h.server.waitForRequests(1)
    await h.settled()
    for (let i = 1; i <= 3; i++) await h.client(`u${i}`, `room${i}`).receive(`small talk in room ${i}`)
    await h.settled()
    expect(await loadedKeys()).to.include('group:room0')
    await h.client('bob', 'room0').receive('here is an answer')
    await h.server.waitForRequests(2)
    expect(lastUserText(h.server.requests[1])).to.include('[wake: 1 new message arrived since you chose to wait]')
  })
})
