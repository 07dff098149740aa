// SPEC §10 / issue 10: without Koishi's HTTP client, media people send are fetched like URLs the
// model asks for: loopback and private addresses only with http.allowPrivate.
import { expect } from 'chai'
import { Harness, call } from '../support/harness'
import { toolResultsOf } from '../support/fake-openai'
import { tinyPng } from '../support/tiny-png'
import { MediaServer } from '../support/media-server'

const PNG = tinyPng(0, 1, 1)

describe('faults: inbound media on private addresses', function () {
  let h: Harness
  let server: MediaServer
  let hits = 0
  before(async () => {
    server = await MediaServer.start((_req, res) => { hits++; res.writeHead(200, { 'content-type': 'image/png' }).end(PNG) })
  })
  after(() => server.close())
  afterEach(async () => { await h?.stop() })

  async function readInboundImage(allowPrivate: boolean): Promise<string> {
    h = await Harness.start({ http: false, profile: { http: { enabled: false, allowPrivate } } })
    const url = `${server.base}/cat.png`
    h.server.script(
      (req) => {
        const id = /asset:\/\/([0-9a-f-]+)/.exec(JSON.stringify(req.body.messages))[1]
        return { toolCalls: [call('read', { url: `asset://${id}?view=meta` }), call('read', { url: `asset://${id}` })] }
      },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('bob').receive(`<img src="${url}"/>`)
    await h.server.waitForRequests(2)
    await h.settled()
    return toolResultsOf(h.server.requests[1]).map(r => r.content).join('\n')
  }

  it('are refused as forbidden without http.allowPrivate, and nothing is fetched', async () => {
    hits = 0
    const out = await readInboundImage(false)
    expect(out).to.match(/forbidden: asset:\/\/[0-9a-f-]+: its media could not be fetched: .*(loopback|private)/)
    expect(out, 'the source never reaches the model (SPEC §3)').to.not.match(/127\.0\.0\.1|cat\.png/)
    expect(hits).to.equal(0)
  })

  for (const http of [false, true]) it(`a file: source is refused, and the error the model reads does not name it (issue 21; Koishi's HTTP client ${http ? 'loaded' : 'absent'})`, async () => {
    h = await Harness.start({ http })
    h.server.script(
      (req) => {
        const id = /asset:\/\/([0-9a-f-]+)/.exec(JSON.stringify(req.body.messages))[1]
        return { toolCalls: [call('read', { url: `asset://${id}` })] }
      },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('bob').receive('<img src="file:///etc/passwd"/>')
    await h.server.waitForRequests(2)
    await h.settled()
    const out = toolResultsOf(h.server.requests[1]).map(r => r.content).join('\n')
    expect(out).to.match(/asset:\/\/[0-9a-f-]+: its media could not be fetched/)
    expect(JSON.stringify(h.server.requests[1].body)).to.not.match(/etc\/passwd|file:/)
  })

  it('are fetched with http.allowPrivate', async () => {
    hits = 0
    const out = await readInboundImage(true)
    expect(out).to.match(new RegExp(`\\[attachment: asset://[0-9a-f-]+; image/png; ${PNG.length} bytes; 1x1\\]`))
    expect(hits).to.equal(1)
  })
})
