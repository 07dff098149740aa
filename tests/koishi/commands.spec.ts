// kotodama.pause and kotodama.status as the owner reads them (SPEC §19, §9): a pause in cross mode
// holds the whole conversation, every channel of it; the memory line counts "1 file".
import { expect } from 'chai'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runtimeHome } from '../../src/runtime/runtime'
import { Harness, call } from '../support/harness'

describe('kotodama commands', function () {
  this.timeout(20000)
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('kotodama.pause in cross mode pauses the conversation: a mention in another channel starts no turn', async () => {
    h = await Harness.start({ trust: { owners: ['mock:bob'] }, profile: { mode: 'cross' } })
    const [paused] = await h.client('bob', 'room1').receive('kotodama.pause 10')
    expect(paused).to.include('Paused here until')
    await h.client('alice', 'room2').receive('<at id="514"/> are you there?')
    await h.app.kotodama.received()
    await h.idle(150)
    expect(h.server.requests, 'no turn in the other channel of the paused conversation').to.have.length(0)
    const [resumed] = await h.client('bob', 'room1').receive('kotodama.pause 0')
    expect(resumed).to.include('may speak here again')
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice', 'room2').receive('<at id="514"/> and now?')
    await h.server.waitForRequests(1)
    await h.settled()
  })

  it('kotodama.status counts one memory file as "1 file"', async () => {
    h = await Harness.start({ trust: { owners: ['mock:bob'] } })
    // the owner's file, found by the look before the next turn
    const local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local', 'memory')
    await mkdir(local, { recursive: true })
    await writeFile(join(local, 'core.md'), 'likes tea\n')
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('hello')
    await h.server.waitForRequests(1)
    await h.settled()
    const [status] = await h.client('bob').receive('kotodama.status')
    expect(status, status).to.match(/memory \(local:\/\/\): 1 file, 10 bytes/)
  })
})
