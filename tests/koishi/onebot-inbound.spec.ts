// What the model reads of what people send on QQ (SPEC §19 "What the mind sees"): NapCat's segments
// (tests/support/fakes/onebot, shaped as NapCatQQ's packages/napcat-onebot api/msg.ts converters emit
// them) decoded by the real koishi-plugin-adapter-onebot 6.9.4 (lib/index.js adaptMessage), rendered by
// kotodama (src/inbound/*.ts), read from the request the fake OpenAI server received. No
// platform URL ever reaches the model.
import { expect } from 'chai'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { h as Element } from 'koishi'
import { seg, type Segment } from '../support/fakes/onebot'
import { OneBotHarness, call } from '../support/onebot-harness'
import { lastUserText } from '../support/fake-openai'

const ASSET = 'asset:\\/\\/[0-9a-f-]{36}'

describe('onebot: what the model reads of what people send', function () {
  let h: OneBotHarness
  /** the elements each session carried, as the adapter decoded them */
  let decoded: Element[][]
  beforeEach(async () => {
    h = await OneBotHarness.start()
    decoded = []
    h.app.on('message', s => { decoded.push(s.elements ?? []) })
  })
  afterEach(async () => { await h?.stop() })

  /** Alice mentions the bot with `segments`; the text of the message as the model read it, after no URL was seen in the request's messages. */
  async function modelReads(...segments: Segment[]): Promise<string> {
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.napcat.groupMessage({ group: 555, user: 2001, nickname: 'Alice', segments: [seg.at(10001), seg.text(' look '), ...segments] })
    await h.server.waitForRequests(1)
    await h.settled()
    // the messages: the tools' JSON schemas name their own $schema URL
    const messages = JSON.stringify(h.server.requests[0].body.messages)
    expect(messages, 'a URL reached the model').to.not.match(/https?:\/\//)
    const line = lastUserText(h.server.requests[0]).split('\n').find(l => l.includes('Alice (2001)'))
    expect(line, 'the message reached the model').to.be.a('string')
    return line!.slice(line!.indexOf('look ') + 'look '.length)
  }

  /** every source registered as an asset in the plugin's data folder */
  async function registeredSources(): Promise<string[]> {
    const out: string[] = []
    const walk = async (dir: string): Promise<void> => {
      for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [] as import('node:fs').Dirent[])) {
        if (e.isDirectory()) await walk(join(dir, e.name))
        else if (e.name === 'index.jsonl') out.push(...(await readFile(join(dir, e.name), 'utf8')).split('\n').filter(Boolean).map(l => JSON.parse(l).key))
      }
    }
    await walk(h.dataDir)
    return out
  }

  // the adapter: face → h('face', { id, name (from its qface table), platform }, [h.image(<the face on the web>)])
  it('a QQ face reads <face name/>, as send_message takes it (onebot-sends.spec.ts); its picture on the web is not registered', async () => {
    expect(await modelReads(seg.face(178), seg.text(' lol'))).to.equal('<face name="斜眼笑"/> lol')
    expect(await registeredSources()).to.deep.equal([])
  })

  // NapCat picElement with picSubType 1; the adapter keeps the attribute, camel-cased by Koishi's h()
  it('a sticker (image with sub_type 1) reads [sticker: asset://…], and its picture is registered', async () => {
    const sticker = seg.sticker({ url: 'https://multimedia.nt.qq.com.cn/download?appid=1407&fileid=STK&rkey=R' })
    expect(await modelReads(sticker)).to.match(new RegExp(`^\\[sticker: ${ASSET}\\]$`))
    expect(decoded[0].find(e => e.type === 'img')!.attrs).to.include({ subType: 1, summary: '[动画表情]' }).and.not.have.property('sub_type')
    expect(await registeredSources()).to.deep.equal([sticker.data.url])
  })

  // NapCat marketFaceElement: an image with emoji_id, emoji_package_id, key and the face's name as summary
  it('a market face reads [sticker: asset://… name]', async () => {
    const face = seg.marketFace({ emoji_id: 'a1b2c3', emoji_package_id: 230245, key: 'k3y', summary: '[好耶]' })
    const text = await modelReads(face)
    expect(text).to.match(new RegExp(`^\\[sticker: ${ASSET} 好耶\\]$`))
    expect(text).to.not.include('k3y')
    expect(decoded[0].find(e => e.type === 'img')!.attrs).to.include({ emojiId: 'a1b2c3', emojiPackageId: 230245 })
  })

  // NapCat pttElement (no duration); the adapter: record → <audio src=url>
  it('a voice message reads [voice: asset://…] (NapCat gives no duration)', async () => {
    expect(await modelReads(seg.record())).to.match(new RegExp(`^\\[voice: ${ASSET}\\]$`))
    expect(await registeredSources()).to.have.length(1)
  })

  // NapCat videoElement; the adapter: video → <video src=url>
  it('a video reads [video: asset://…]', async () => {
    expect(await modelReads(seg.video())).to.match(new RegExp(`^\\[video: ${ASSET}\\]$`))
  })

  // NapCat fileElement without url: the adapter sets src to the bare `file` name
  it('a group file without a url reads its name and size, and nothing is registered under its bare name', async () => {
    expect(await modelReads(seg.file({ file: 'report.pdf', file_size: '1258291' }))).to.equal('[file: report.pdf, 1.2 MB]')
    expect(decoded[0].find(e => e.type === 'file')!.attrs).to.include({ src: 'report.pdf', fileSize: '1258291' })
    expect(await registeredSources()).to.deep.equal([])
  })

  // NapCat action/go-cqhttp/GetForwardMsg.ts ({ messages }, each with `sender` and `message` segments), through the adapter's Internal._get
  it('a forward is expanded through get_forward_msg, a nested one inside it too', async () => {
    h.napcat.forward('inner-1', [{ user: 2004, nickname: 'Dan', segments: [seg.text('deep')] }])
    h.napcat.forward('fwd-1', [
      { user: 2002, nickname: 'Bob', segments: [seg.text('hello')] },
      { user: 2003, nickname: 'Carol', segments: [seg.face(14), seg.text(' '), seg.forward('inner-1')] },
    ])
    const text = await modelReads(seg.forward('fwd-1'))
    // a fetched message's face has no name: the adapter's face table is not used for fetched messages (inbound/onebot-segments.ts)
    expect(text).to.equal('[forwarded messages:')
    const request = lastUserText(h.server.requests[0])
    // the fact's later lines indented once more (SPEC §22)
    expect(request).to.include('[forwarded messages:\n    Bob: hello\n    Carol: <face name="微笑"/> [forwarded messages:\n      Dan: deep\n    ]\n  ]')
    expect(h.napcat.calls.filter(c => c.action === 'get_forward_msg').map(c => String(c.params.message_id))).to.deep.equal(['fwd-1', 'inner-1'])
  })

  it('a forward the implementation cannot find reads [forwarded messages]', async () => {
    expect(await modelReads(seg.forward('7412345678901234567'))).to.equal('[forwarded messages]')
    const asked = h.napcat.calls.find(c => c.action === 'get_forward_msg')!
    expect(asked.response).to.deep.include({ status: 'failed', retcode: 1200 })
    expect(h.warnings()).to.deep.equal([])
  })

  // the adapter passes unknown segments through with every attribute (OneBot v11 message/segment.md: music, poke, dice)
  it('an unknown segment reads [type] with its text, never its attributes', async () => {
    const music = { type: 'music', data: { type: 'custom', url: 'https://y.qq.com/n/song', audio: 'https://ws.stream.qqmusic.qq.com/a.m4a', title: '晴天', image: 'https://y.gtimg.cn/a.jpg' } }
    expect(await modelReads(seg.poke('126', '2003'), music, seg.dice(3))).to.equal('[poke][music: 晴天][dice]')
  })
})
