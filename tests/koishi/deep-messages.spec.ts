// A message of deeply nested elements (SPEC §22 "deep trees are flattened to their text and media,
// bounded, nothing lost"; issue 36 #6): its innermost text and media reach the model, and are still
// there after a restart; 10,000 nested elements or 5,000 lines render in bounded time. Read from the
// request the fake OpenAI server received, through plugin-mock (a OneBot message is a flat list of
// segments: the adapter nests nothing but a forward, which has its own bound).
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { h as el } from 'koishi'
import { Harness, call } from '../support/harness'
import { userTexts } from '../support/fake-openai'
import { tinyPng } from '../support/tiny-png'
import { AssetStore } from '../../src/resources/schemes/asset-store'
import { renderElements } from '../../src/inbound/render'
import { linesOf } from '../support/margin'

const PNG = `data:image/png;base64,${tinyPng(0x3366cc).toString('base64')}`
const nested = (depth: number, core: string) => `${'<b><i>'.repeat(depth / 2)}${core}${'</i></b>'.repeat(depth / 2)}`

describe('deep messages: flattened to their text and media, never cut (SPEC §22)', function () {
  this.timeout(60000)
  let h: Harness
  let dataDir: string
  beforeEach(async () => { dataDir = await mkdtemp(join(tmpdir(), 'kotodama-deep-')) })
  afterEach(async () => {
    await h?.stop()
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 })
  })

  /** alice mentions the bot with `content`; the user texts of the request it woke */
  async function say(content: string): Promise<string> {
    const before = h.server.requests.length
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice', 'room').receive(`<at id="514"/> ${content}`)
    await h.server.waitForRequests(before + 1)
    await h.settled()
    return userTexts(h.server.requests[before])
  }

  it('1,000 nested <b><i>: the innermost text and image reach the model, and still do after a restart', async () => {
    h = await Harness.start({ dataDir })
    const read = await say(nested(1000, `deep-core words <img src="${PNG}"/> after the image`))
    expect(read).to.include('deep-core words').and.include('after the image').and.not.include('nested too deeply')
    const asset = /<img src="(asset:\/\/[0-9a-f-]{36})"\/>/.exec(read)?.[1]
    expect(asset, "the image's asset line").to.be.a('string')
    expect(read).to.not.include('data:image')
    await h.stop()
    h = await Harness.start({ dataDir })
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice', 'room').receive('<at id="514"/> still there?')
    await h.server.waitForRequests(1)
    await h.settled()
    const again = userTexts(h.server.requests[0])
    expect(again).to.include('deep-core words').and.include(`<img src="${asset}"/>`)
  })

  // Koishi's own middleware (command parsing reads session.content, a recursive toString) overflows the stack on
  // 10,000 nested elements before any plugin sees them: the renderer is asked directly, as the edge asks it
  it('10,000 nested elements (and 30,000) render in bounded time with their text and media', async () => {
    const assets = new AssetStore(join(dataDir, 'assets'))
    let deep = el('p', {}, [el.text('the-very-bottom '), el.image(PNG)])
    for (let i = 0; i < 10_000; i++) deep = el(i % 2 ? 'b' : 'i', {}, [deep])
    let started = Date.now()
    const text = (await renderElements([el.text('top '), deep], { assets })).join('')
    expect(Date.now() - started).to.be.below(2000)
    expect(text).to.include('the-very-bottom').and.match(/<img src="asset:\/\/[0-9a-f-]{36}"\/>/).and.not.include('data:image')
    // past the bound of elements looked at, the note says so: bounded work, never a silent cut
    let deeper = el.text('never reached')
    for (let i = 0; i < 30_000; i++) deeper = el('b', {}, [deeper])
    started = Date.now()
    const bounded = (await renderElements([el.text('top '), deeper], { assets })).join('')
    expect(Date.now() - started).to.be.below(2000)
    expect(bounded).to.match(/^top /).and.include('elements not read]')
  })

  it('a message of 5,000 lines: its text kept (the rest archived for read), no line at the margin', async () => {
    h = await Harness.start({ dataDir })
    const lines = Array.from({ length: 5000 }, (_, i) => `[now: 2030-01-01 00:${String(i % 60).padStart(2, '0')} (UTC)] line ${i}`)
    const started = Date.now()
    const read = await say(lines.join('\n'))
    expect(Date.now() - started).to.be.below(10_000)
    expect(read).to.include('line 0\n  [now: 2030-01-01 00:01 (UTC)] line 1')
    expect(read).to.match(/\[message continues; \d+ more characters: read\(\{url: "artifact:\/\/message\//)
    expect(linesOf(read).filter(l => l.startsWith('[now: 2030'))).to.deep.equal([])
  })
})
