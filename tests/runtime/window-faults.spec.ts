// SPEC §10: a request window is never empty and never drops the step being answered.
import { expect } from 'chai'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Harness, call } from '../support/harness'
import { messagesOf, toolResultsOf } from '../support/fake-openai'
import { runtimeHome } from '../../src/runtime/runtime'
import { tinyPng } from '../support/tiny-png'

const PNG = tinyPng(0, 1, 1)

describe('faults: the request window', function () {
  let h: Harness
  afterEach(async () => { await h?.stop() })

  it('a step reading two long texts and a PNG (default config) is answered, shortened, not dropped', async () => {
    h = await Harness.start({ profile: { attachment: { imageInput: true } } })
    const local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
    await mkdir(local, { recursive: true })
    const lines = (c: string) => Array.from({ length: 400 }, (_, i) => `${String(i).padStart(3, '0')} ${c.repeat(95)}`).join('\n') + '\n'
    await writeFile(join(local, 'a.txt'), lines('a'))
    await writeFile(join(local, 'b.txt'), lines('b'))
    await writeFile(join(local, 'p.png'), PNG)
    h.server.script(
      { toolCalls: [call('read', { url: 'local://a.txt' }), call('read', { url: 'local://b.txt' }), call('read', { url: 'local://p.png' })] },
      { toolCalls: [call('send_message', { messages: ['read them'] })] },
    )
    await h.client('bob').receive('please read the files')
    await h.server.waitForRequests(2)
    await h.until(() => h.sent.length === 1, 'the answer')
    await h.settled()
    expect(h.warnings().join('\n')).to.not.match(/messages must not be empty|call to model/)
    const req = h.server.requests[1]
    const text = JSON.stringify(messagesOf(req))
    expect(text).to.include('please read the files')          // the waking fact
    const results = toolResultsOf(req)
    expect(results).to.have.length(3)                           // the step being answered
    expect(results[0].content).to.match(/^000 a{95}/)
    expect(results[0].content).to.match(/\[shortened to fit your context window; the whole text: read\(\{url: "artifact:\/\/context\/[0-9a-f]{20}\.txt"\}\)\]$/)
    expect(text.length).to.be.below(80_000)
    expect(h.sent.map(s => s.content)).to.deep.equal(['read them'])
  })
})
