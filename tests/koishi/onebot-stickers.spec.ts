// Stickers through the real koishi-plugin-adapter-onebot 6.9.4 and the fake NapCat (SPEC §19 "What the
// mind sends" / "What the mind sees"), with a sticker library of real tiny images in a temporary folder.
// What reaches the wire is read from the fake: NapCat shows an `image` segment as a sticker when its data
// has `sub_type: 1`, `summary` its preview text (NapCatQQ packages/napcat-onebot api/msg.ts, the image
// converter of ob11ToRawConverters); the adapter copies an `img`'s attributes into that segment and turns
// a data: source into `base64://` (lib/index.js, OneBotMessageEncoder.visit). Through plugin-mock: the
// plain image other platforms get.
import { expect } from 'chai'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seg } from '../support/fakes/onebot'
import { OneBotHarness, call } from '../support/onebot-harness'
import { lastUserText, toolResultsOf } from '../support/fake-openai'
import { Harness } from '../support/harness'
import { tinyPng } from '../support/tiny-png'
import { MediaServer } from '../support/media-server'

const GROUP = 555
/** a real 1×1 GIF */
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')
const CAT = tinyPng(0xff8800)
const DOG = tinyPng(0x8800ff)
const UGLY = tinyPng(0x00ff00)
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

async function libraryDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kotodama-stickers-'))
  await writeFile(join(dir, 'happy-cat.png'), CAT)
  await writeFile(join(dir, 'happy-cat.json'), JSON.stringify({ description: 'a cat jumping for joy', tags: ['happy', '开心'] }))
  await writeFile(join(dir, 'sad-dog.png'), DOG)
  await writeFile(join(dir, 'wave.gif'), GIF)
  await writeFile(join(dir, 'ugly.png'), UGLY)
  // the library's state file (src/stickers/state-book.ts): the owner banned this one
  await writeFile(join(dir, '.kotodama-stickers.json'), JSON.stringify({ stickers: { [sha(UGLY)]: { name: 'ugly', state: 'banned' } } }))
  return dir
}

describe('onebot: stickers sent and seen', function () {
  this.timeout(20000)
  let h: OneBotHarness
  let dir: string
  beforeEach(async () => { dir = await libraryDir() })
  afterEach(async () => {
    await h?.stop()
    await rm(dir, { recursive: true, force: true })
  })

  const start = (maxPerTurn = 1) => OneBotHarness.start({ profile: { stickers: { enabled: true, dir, maxPerTurn } } })
  /** the model answers Alice's mention with these send_message calls, then finishes */
  const answer = (...calls: { messages: string[] }[]) => {
    h.server.script({ toolCalls: calls.map(c => call('send_message', { ...c, continue: true })) }).fallback({ toolCalls: [call('finish', {})] })
  }
  const mention = () => h.napcat.groupMessage({ group: GROUP, user: 2001, nickname: 'Alice', segments: [seg.at(10001), seg.text(' hi')] })
  const results = async () => {
    await h.server.waitForRequests(2)
    await h.settled()
    return toolResultsOf(h.server.requests[1]).map(r => JSON.parse(r.content))
  }

  it('a sticker goes out as an image segment with sub_type 1, summary [动画表情] and the file\'s bytes; its use is recorded', async () => {
    h = await start()
    answer({ messages: ['look <sticker name="happy-cat"/>'] })
    await mention()
    const [sent] = await h.napcat.waitForSent(1)
    expect(sent.segments.map(s => s.type)).to.deep.equal(['text', 'image'])
    const image = sent.segments[1].data
    // the snake-case key NapCat reads, as a number; no camel-cased or kotodama key beside it
    expect(image).to.deep.include({ sub_type: 1, summary: '[动画表情]', file: `base64://${CAT.toString('base64')}` })
    expect(image).to.not.have.any.keys('subType', 'kotodamaSticker', 'kotodama-sticker')
    const [result] = await results()
    expect(result).to.deep.equal({ ok: true, ids: [String(sent.message_id)] })
    const state = () => { try { return JSON.parse(readFileSync(join(dir, '.kotodama-stickers.json'), 'utf8')).stickers[sha(CAT)] } catch { return undefined } }
    await h.until(() => state()?.uses === 1, 'the use recorded')
    expect(state()).to.include({ name: 'happy-cat' }).and.have.property('lastUsed').that.is.a('number')
  })

  it('a second sticker in one turn (maxPerTurn 1) is dropped and reported; an unknown name too; the rest is sent', async () => {
    h = await start(1)
    answer({ messages: ['<sticker name="wave"/>', 'ok <sticker name="sad-dog"/>'] }, { messages: ['<sticker name="no-such"/>and that'] })
    await mention()
    const sent = await h.napcat.waitForSent(3)
    expect(sent[0].segments).to.have.length(1)
    expect(sent[0].segments[0]).to.deep.include({ type: 'image' })
    expect(sent[0].segments[0].data).to.deep.include({ sub_type: 1, file: `base64://${GIF.toString('base64')}` })
    expect(sent[1].segments).to.deep.equal([seg.text('ok')])
    expect(sent[2].segments).to.deep.equal([seg.text('and that')])
    const [first, second] = await results()
    expect(first.ok).to.equal(true)
    expect(first.dropped.map((d: any) => [d.src, d.code])).to.deep.equal([['<sticker name="sad-dog"/>', 'sticker_limit']])
    expect(second.dropped.map((d: any) => d.code)).to.deep.equal(['unknown_sticker'])
    expect(second.dropped[0].message).to.include('you may send: happy-cat, sad-dog, wave')
  })

  it('a banned sticker is never sent, nor named to the mind', async () => {
    h = await start(2)
    answer({ messages: ['<sticker name="ugly"/> hm'] })
    await mention()
    const [sent] = await h.napcat.waitForSent(1)
    expect(sent.segments).to.deep.equal([seg.text('hm')])
    const [result] = await results()
    expect(result.dropped.map((d: any) => d.code)).to.deep.equal(['unknown_sticker'])
    expect(result.dropped[0].message).to.not.match(/ugly,|, ugly/)
    expect(JSON.stringify(h.server.requests[0].body)).to.not.include('ugly')
  })

  describe('seen', () => {
    let media: MediaServer
    let base: string
    before(async () => {
      media = await MediaServer.start((req, res) => {
        const body = req.url?.startsWith('/cat') ? CAT : UGLY
        res.writeHead(200, { 'content-type': 'image/png' }).end(body)
      })
      base = media.base
    })
    after(() => media.close())

    const reads = async (segment: ReturnType<typeof seg.sticker>) => {
      h.server.script({ toolCalls: [call('finish', {})] })
      await h.napcat.groupMessage({ group: GROUP, user: 2001, nickname: 'Alice', segments: [seg.at(10001), seg.text(' look '), segment] })
      await h.server.waitForRequests(1)
      await h.settled()
      const line = lastUserText(h.server.requests[0]).split('\n').find(l => l.includes('Alice (2001)'))!
      return line.slice(line.indexOf('look ') + 5)
    }

    // NapCat picElement with picSubType 1 (seg.sticker); its bytes fetched at arrival from the link
    it('an inbound sticker whose bytes are a library sticker\'s reads with its name and label', async () => {
      h = await start()
      expect(await reads(seg.sticker({ url: `${base}/cat.gif?rkey=R` }))).to.match(/^\[sticker: asset:\/\/[0-9a-f-]{36} happy-cat: a cat jumping for joy\]$/)
    })

    it('a picture (sub_type 0) with a library sticker\'s bytes reads as that sticker', async () => {
      h = await start()
      expect(await reads(seg.image({ url: `${base}/cat.png?rkey=S`, file_size: String(CAT.length) }))).to.match(/^\[sticker: asset:\/\/\S+ happy-cat: a cat jumping for joy\]$/)
    })

    it('a banned sticker seen is a sticker the mind is not told the name of', async () => {
      h = await start()
      expect(await reads(seg.sticker({ url: `${base}/ugly.gif?rkey=T` }))).to.match(/^\[sticker: asset:\/\/[0-9a-f-]{36}\]$/)
    })
  })
})

describe('stickers on a platform without the sticker mark', function () {
  let h: Harness
  let dir: string
  afterEach(async () => {
    await h?.stop()
    await rm(dir, { recursive: true, force: true })
  })

  it('a sticker goes out as a plain image: no mark, no kotodama attribute', async () => {
    dir = await libraryDir()
    h = await Harness.start({ profile: { stickers: { enabled: true, dir, maxPerTurn: 1 } } })
    h.server.script({ toolCalls: [call('send_message', { messages: ['<sticker name="wave"/>'] })] })
    await h.client('bob').receive('hi')
    await h.until(() => h.sent.length === 1, 'send')
    expect(h.sent[0].content).to.equal(`<img src="data:image/gif;base64,${GIF.toString('base64')}"/>`)
  })
})
