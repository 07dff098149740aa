// People keep per-conversation state only while the conversation is loaded (issue 37, defect 6):
// an unloaded conversation comes back as after a restart, its shown notes forgotten, so a note is
// shown again in its next opening, and a bot in thousands of groups holds state only for the loaded.
import { expect } from 'chai'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { LoadedConversations } from '../../src/runtime/loaded-conversations'
import { runtimeHome } from '../../src/runtime/runtime'
import { personRel } from '../../src/people/people-path'
import { userTexts } from '../support/fake-openai'
import { Harness, call } from '../support/harness'

describe('people: an unloaded conversation', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  /** One turn of `room` woken by bob; the text of its request after the waking message. */
  async function turn(room: string): Promise<string> {
    const before = h.server.requests.length
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob', room).receive(`<at id="514"/> hi #${before}`)
    await h.server.waitForRequests(before + 1)
    await h.settled()
    const text = userTexts(h.server.requests[before])
    return text.slice(text.lastIndexOf(`hi #${before}`))
  }

  it('forgets the notes it showed there: after unloading, the next opening shows the note again', async () => {
    h = await Harness.start()
    ;(h.app.kotodama as any).loaded = new LoadedConversations(1)
    const local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
    await mkdir(join(local, 'memory', 'people', 'mock'), { recursive: true })
    await writeFile(join(local, personRel('mock', 'bob')), 'Bob: likes jazz')
    expect(await turn('room1')).to.include('Bob: likes jazz')
    // shown in a recent opening of a loaded conversation: not again
    expect(await turn('room1')).to.not.include('Bob: likes jazz')
    // another room loads; room1, idle, is unloaded under the budget of one
    await h.client('carol', 'room2').receive('small talk')
    await h.settled()
    const loaded = (await (await h.app.kotodama.list())[0].status()).map(c => c.key)
    expect(loaded).to.deep.equal(['group:room2'])
    expect(await turn('room1'), 'as after a restart').to.include('Bob: likes jazz')
  })
})
