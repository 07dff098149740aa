// What send_message lets out (SPEC §22 "What it sends cannot reach the host", §4.1 as amended; issue 36
// findings 1, 2 and 9), through Koishi with plugin-mock: the bot receives no host path, no raw adapter
// element, no component, no script link; media leave as inline data; the tool's result says what was
// removed and why. The same through the real adapters: tests/koishi/send-safety-platforms.spec.ts.
import { expect } from 'chai'
import { Harness, call } from '../support/harness'
import { toolResultsOf } from '../support/fake-openai'
import { MediaServer } from '../support/media-server'
import { tinyPng } from '../support/tiny-png'
import { sendMessageTool } from '../../src/tools/send-message'
import type { ToolHost } from '../../src/tools/types'

const PNG = tinyPng(0x3366cc)
const CTX = () => ({ callId: 'c', fromProgram: false, signal: new AbortController().signal, turn: { number: 1, wokeAt: 0 } })

/** send_message against a host that records what it delivers and resolves no resource */
function directHost() {
  const delivered: string[] = []
  const host = {
    mode: 'channel', bot: 'mock:1', typing: { baseDelay: 0, charPerSecond: 1000, minDelay: 0, maxDelay: 0, jitter: 0 },
    random: () => 0.5, ownTarget: () => ({ bot: 'mock:1', channel: 'private:1' }), resolveTarget: () => ({ error: 'no' }),
    isOnline: () => true, deliver: async (_: unknown, content: string) => { delivered.push(content); return [`m${delivered.length}`] },
    showTyping: () => {}, serialize: (task: () => Promise<any>) => task(),
    resolveMedia: async () => { throw new Error('not reached') }, sleep: async () => {}, now: () => 0,
  } as unknown as ToolHost
  return { host, delivered }
}
const FORBIDDEN_IN_SENDS = [/file:/i, /onebot:/i, /<execute/i, /javascript:/i, /<sharp/i, /127\.0\.0\.1/, /\/etc\//, /\/root\//]

describe('send_message: what it sends cannot reach the host', function () {
  this.timeout(20000)
  let h: Harness
  let media: MediaServer | undefined
  afterEach(async () => {
    await h?.stop()
    await media?.close()
    media = undefined
  })

  /** alice writes in private; the model sends `messages` and then finishes; returns the tool's result */
  async function send(messages: string[], profile?: any) {
    h = await Harness.start(profile ? { profile } : {})
    h.server.script({ toolCalls: [call('send_message', { messages, continue: true })] }).fallback({ toolCalls: [call('finish', {})] })
    await h.client('alice').receive('send it')
    await h.server.waitForRequests(2)
    await h.settled()
    return JSON.parse(toolResultsOf(h.server.requests[1]).at(-1)!.content)
  }

  it('a host file, a bare path, a raw adapter element, a component, a script link and a sharp never reach the bot; dropped says which and why; the rest is sent', async () => {
    const result = await send([
      'look <img src="file:///etc/hostname"/> here',
      '<file src="file:///root/.bashrc"/>config',
      '<img src="/etc/passwd"/>bare <video src="//169.254.169.254/latest"/>',
      '<onebot:music type="custom" url="http://127.0.0.1:8080/" audio="file:///etc/hostname" title="song"/>tune',
      '<execute>kotodama.status</execute>',
      '<a href="javascript:alert(1)">click</a> <sharp id="g2"/>and <a href="https://koishi.chat/">docs</a>',
      '<message forward><message>as if someone said it</message></message>',
    ])
    expect(result.ok).to.equal(true)
    const contents = h.sent.map(s => s.content)
    expect(contents).to.deep.equal([
      'look  here', 'config', 'bare ', 'tune', 'kotodama.status', 'click and <a href="https://koishi.chat/">docs</a>',
      '<message>as if someone said it</message>',
    ])
    for (const c of contents) for (const bad of FORBIDDEN_IN_SENDS) expect(c).to.not.match(bad)
    expect(result.dropped.map((d: any) => [d.code, d.src])).to.deep.equal([
      ['forbidden_source', 'file:///etc/hostname'],
      ['forbidden_source', 'file:///root/.bashrc'],
      ['forbidden_source', '/etc/passwd'],
      ['forbidden_source', '//169.254.169.254/latest'],
      ['unsupported_element', '<onebot:music type="custom" url="http://127.0.0.1:8080/" audio="file:///etc/hostname" title="song"/>'],
      ['unsupported_element', '<execute/>'],
      ['forbidden_source', 'javascript:alert(1)'],
      ['unsupported_element', '<sharp id="g2"/>'],
      ['unsupported_element', '<message forward/>'],
    ])
    // one sentence the model can act on: what was removed and what to send instead
    expect(result.dropped[0].message).to.match(/file: sources are not sent/).and.match(/asset:\/\//)
    expect(result.dropped[4].message).to.match(/<onebot:music> is not sent/)
    expect(result.dropped[6].message).to.match(/http\(s\)/)
  })

  it('an https image is fetched by kotodama under read\'s rules and sent as data: (http on, allowPrivate)', async () => {
    media = await MediaServer.start()
    const url = media.put('/cat.png', PNG, 'image/png')
    const result = await send([`<img src="${url}"/>a cat`], { http: { enabled: true, allowPrivate: true } })
    expect(result).to.deep.equal({ ok: true, ids: ['sent-0'] })
    expect(h.sent.map(s => s.content)).to.deep.equal([`<img src="data:image/png;base64,${PNG.toString('base64')}"/>a cat`])
    expect(media.fetches.get('/cat.png')).to.equal(1)
  })

  it('a private address is refused without allowPrivate: dropped as forbidden, never fetched', async () => {
    media = await MediaServer.start()
    const url = media.put('/cat.png', PNG, 'image/png')
    const result = await send([`<img src="${url}"/>a cat`], { http: { enabled: true, allowPrivate: false } })
    expect(h.sent.map(s => s.content)).to.deep.equal(['a cat'])
    expect(result.dropped).to.have.length(1)
    expect(result.dropped[0]).to.include({ src: url, code: 'forbidden' })
    expect(media.fetches.get('/cat.png')).to.equal(undefined)
  })

  it('with the web off an http(s) source is dropped as forbidden_source, saying what to send instead', async () => {
    media = await MediaServer.start()
    const url = media.put('/cat.png', PNG, 'image/png')
    const result = await send([`<img src="${url}"/>a cat`, '<img src="https://example.com/x.png"/>b'])
    expect(h.sent.map(s => s.content)).to.deep.equal(['a cat', 'b'])
    expect(result.dropped.map((d: any) => d.code)).to.deep.equal(['forbidden_source', 'forbidden_source'])
    expect(result.dropped[0].message).to.match(/web sources are off/).and.match(/asset:\/\//)
    expect(media.fetches.get('/cat.png')).to.equal(undefined)
  })

  describe('bad input', () => {
    it('a 1 MB data: URL goes out as it is; a src of 300 characters is clipped in dropped', async () => {
      const data = `data:image/png;base64,${Buffer.alloc(750_000, 7).toString('base64')}`
      const long = `file:///${'a'.repeat(292)}`
      const started = Date.now()
      const result = await send([`<img src="${data}"/>`, `<img src="${long}"/>x`])
      expect(Date.now() - started).to.be.below(10_000)
      expect(h.sent.map(s => s.content)).to.deep.equal([`<img src="${data}"/>`, 'x'])
      expect(result.dropped).to.have.length(1)
      expect(result.dropped[0].src).to.equal(`${long.slice(0, 200)}…`)
      expect(result.dropped[0].code).to.equal('forbidden_source')
    })

    it('10,000 nested unsupported elements: their text is sent, one drop reported, no stack overflow', async () => {
      const deep = '<random>'.repeat(10_000) + 'deep-core <b>bold</b> &lt;3' + '</random>'.repeat(10_000)
      const started = Date.now()
      const result = await send([deep, 'after'])
      expect(Date.now() - started).to.be.below(10_000)
      expect(result.ok).to.equal(true)
      // too deep for the element parser: the words go as text (escaped for the adapter)
      expect(h.sent.map(s => s.content)).to.deep.equal(['deep-core bold &lt;3', 'after'])
      expect(result.dropped).to.have.length(1)
      expect(result.dropped[0]).to.include({ code: 'unsupported_element', src: `${deep.slice(0, 200)}…` })
      expect(result.dropped[0].message).to.match(/nested too deeply/)
    })

    it('1,000 nested unsupported elements within the parser\'s reach: one report counts them, formatting inside kept', async () => {
      const deep = '<random>'.repeat(1000) + 'deep-core <b>bold</b>' + '</random>'.repeat(1000)
      const result = await send([deep])
      expect(h.sent.map(s => s.content)).to.deep.equal(['deep-core <b>bold</b>'])
      expect(result.dropped).to.deep.equal([{
        src: '<random/>', code: 'unsupported_element',
        message: '<random> (1000 of them) is not sent: only the elements send_message\'s description lists are; its text was kept',
      }])
    })

    it('a data: URL over 20 MiB decoded is dropped as too_large; a malformed one is not sent', async () => {
      const { host, delivered } = directHost()
      const huge = `data:application/octet-stream;base64,${'A'.repeat(28 * 1024 * 1024)}`
      const started = Date.now()
      const result: any = await sendMessageTool(host).execute({ messages: [`<file src="${huge}"/>big`, '<img src="data:,hello"/>plain'] }, CTX())
      expect(Date.now() - started).to.be.below(5000)
      expect(delivered).to.deep.equal(['big', 'plain'])
      expect(result.dropped.map((d: any) => d.code)).to.deep.equal(['too_large', 'invalid_url'])
      expect(result.dropped[0].src).to.have.length(201)
      expect(result.dropped[0].message).to.match(/20 MiB/)
    })

    it('200 nested formatting elements reach the adapter at most 32 deep, their words and image kept', async () => {
      const { host, delivered } = directHost()
      const deep = '<b>'.repeat(200) + 'core <img src="data:image/png;base64,iVBO"/>' + '</b>'.repeat(200)
      const result: any = await sendMessageTool(host).execute({ messages: [deep] }, CTX())
      expect(result).to.deep.equal({ ok: true, ids: ['m1'] })
      expect(delivered[0]).to.equal('<b>'.repeat(32) + 'core <img src="data:image/png;base64,iVBO"/>' + '</b>'.repeat(32))
    })
  })
})
