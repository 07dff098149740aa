// SPEC §10: facts of one conversation are stored, and shown, in the order they arrived.
import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Harness, call } from '../support/harness'
import { lastUserText } from '../support/fake-openai'
import { tinyPng } from '../support/tiny-png'

// a PNG followed by 3 MB of bytes: registering it (decode, hash, write) takes a while
const BIG_IMAGE = `data:image/png;base64,${Buffer.concat([tinyPng(0, 1, 1), Buffer.alloc(3 << 20, 7)]).toString('base64')}`

describe('faults: facts keep their arrival order', function () {
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('a message with media is stored and shown before a mention that arrived after it', async () => {
    h = await Harness.start()
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive(`<img src="${BIG_IMAGE}"/> look at this`)
    await h.client('bob', 'room1').receive('<at id="514"/> what do you think?')
    await h.server.waitForRequests(1)
    await h.settled()
    const text = lastUserText(h.server.requests[0])
    expect(text).to.include('look at this')
    expect(text.indexOf('look at this')).to.be.below(text.indexOf('what do you think?'))
    const runtime = (await h.app.kotodama.list())[0]
    const lines = (await readFile(join(runtime.home, 'conversations', 'group%3Aroom1.jsonl'), 'utf8')).trim().split('\n').map(l => JSON.parse(l))
    const facts = lines.filter(e => e.type === 'fact').map(e => e.fact.user.id)
    expect(facts).to.deep.equal(['alice', 'bob'])
  })

  it('conversations do not wait for each other: a slow message holds back only its own channel', async () => {
    h = await Harness.start()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    await h.client('alice', 'room1').receive(`<img src="${BIG_IMAGE}"/> slow one`)
    await h.client('bob', 'room2').receive('<at id="514"/> quick one')
    await h.server.waitForRequests(1)
    // the first request is room2's: room1's image was still being registered
    expect(lastUserText(h.server.requests[0])).to.include('quick one')
    await h.settled()
  })
})
