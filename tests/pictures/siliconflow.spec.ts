// Pictures through SiliconFlow's own images API (SPEC §24): Koishi + plugin-mock, the chat model on
// FakeOpenAI, the image entry (`provider: siliconflow`) on FakeSiliconFlow. The request is
// SiliconFlow's shape (image_size, batch_size, an input picture as a data: URL), the picture is fetched
// from the answer's link and never shown to the model or the log, and a failure keeps its words.
import { expect } from 'chai'
import { checkConfig } from '../../src/runtime/config-of-parts'
import { pictureOf } from '../support/fake-images'
import { FakeSiliconFlow, inputOf } from '../support/fake-siliconflow'
import { Harness, call, type HarnessOptions } from '../support/harness'
import { drawResults, sendDrawn, sentPicture, writeReference } from '../support/pictures'

const FINISH = { toolCalls: [call('finish', {})] }
const draw = (prompt: string, more: Record<string, unknown> = {}) => call('draw', { prompt, ...more })
const MB = 1024 * 1024
/** what a link of the fake looks like, anywhere it might leak */
const LINK = /\/files\/\d+\.png|Signature=/

describe('pictures: SiliconFlow', function () {
  this.timeout(20000)
  let h: Harness | undefined
  let sf: FakeSiliconFlow | undefined
  afterEach(async () => {
    await h?.stop()
    await sf?.close()
    h = sf = undefined
  })

  async function rig(o: { images?: Record<string, unknown>; kolors?: Record<string, unknown>; harness?: HarnessOptions } = {}) {
    sf = await FakeSiliconFlow.start()
    h = await Harness.start({ ...o.harness, extraModels: [sf.model(o.kolors)], profile: { images: { model: 'kolors', ...o.images } } })
    return { h, sf }
  }

  /** One turn of alice's whose first step is `calls`; the draws' results as the model read them. */
  async function turn(h: Harness, calls: ReturnType<typeof call>[]) {
    const before = h.server.requests.length
    h.server.script({ toolCalls: calls }, FINISH)
    await h.client('alice').receive('draw')
    await h.server.waitForRequests(before + 2)
    await h.settled()
    return drawResults(h, before + 1, calls.length)
  }

  /** Nothing the model read, and no log line, holds a link of the fake. */
  function noLinkShown(h: Harness) {
    expect(JSON.stringify(h.server.requests.map(q => q.body))).to.not.match(LINK)
    expect(JSON.stringify(h.logs)).to.not.match(LINK)
  }

  it('a drawn picture reaches the chat as the link\'s bytes; the request is SiliconFlow\'s shape', async () => {
    const { h, sf } = await rig()
    h.server.script({ toolCalls: [draw('a cat in a hat')] }, sendDrawn).fallback(FINISH)
    await h.client('alice').receive('draw me a cat')
    await h.until(() => h.sent.length === 1, 'the picture sent')
    await h.settled()
    const [req] = sf.generations.requests
    expect(req.body).to.deep.equal({ model: 'Kwai-Kolors/Kolors', prompt: 'a cat in a hat', image_size: '1024x1024', batch_size: 1 })
    expect(req.headers.authorization).to.equal('Bearer sk-sf')
    expect(drawResults(h, 1, 1)[0].url).to.match(/^asset:\/\/[\w-]+$/)
    expect(sf.fetches).to.equal(1)
    expect(sentPicture(h.sent[0].content)!.equals(pictureOf('a cat in a hat'))).to.equal(true)
    noLinkShown(h)
  })

  it('a refusal (400 with a message) is Refused in the server\'s words; a size the model does not take too', async () => {
    const { h, sf } = await rig({ images: { perUserDay: 1 } })
    const words = 'The prompt contains sensitive content, please modify it and try again.'
    sf.generations.script({ status: 400, error: words, code: 20022 })
    const [refused] = await turn(h, [draw('something bad')])
    const [badSize] = await turn(h, [draw('a wide one', { size: '512x512' })])
    expect(refused).to.deep.equal({ ok: false, error: { name: 'Refused', message: words } })
    expect(badSize.error.name).to.equal('Refused')
    expect(badSize.error.message).to.include('image_size "512x512" is not supported by Kwai-Kolors/Kolors')
    // nothing was drawn: the person's one picture of the day is still theirs
    const [drawn] = await turn(h, [draw('a flower')])
    expect(drawn.ok).to.equal(true)
  })

  it('a 503 is Failed with the server\'s words', async () => {
    const { h, sf } = await rig()
    sf.generations.script({ status: 503, error: 'System is too busy now. Please try again later.', code: 50505 })
    const [busy] = await turn(h, [draw('a busy one')])
    expect(busy.error.name).to.equal('Failed')
    expect(busy.error.message).to.equal('the picture server failed: HTTP 503: System is too busy now. Please try again later.')
  })

  it('a link that answers 404 (expired) is Failed, and no link reaches the model or the log', async () => {
    const { h, sf } = await rig()
    sf.generations.script({ expired: true })
    const [gone] = await turn(h, [draw('a lost one')])
    expect(gone.error.name).to.equal('Failed')
    expect(gone.error.message).to.include('the picture\'s link answered HTTP 404')
    expect(sf.fetches).to.equal(1)
    noLinkShown(h)
  })

  it('a link to another origin on a private address is not fetched (only the baseURL\'s origin is the owner\'s)', async () => {
    const { h, sf } = await rig()
    const elsewhere = await FakeSiliconFlow.start()
    try {
      sf.generations.script({ linkOrigin: elsewhere.server.origin })
      const [refused] = await turn(h, [draw('an inside job')])
      expect(refused.error.name).to.equal('Failed')
      expect(refused.error.message).to.include('the picture\'s link was refused')
      expect(elsewhere.fetches).to.equal(0)
      noLinkShown(h)
    } finally {
      await elsewhere.close()
    }
  })

  it('an edit of the reference picture sends it as a data: URL in `image`', async () => {
    const { h, sf } = await rig({ images: { reference: 'local://me.png' } })
    const me = await writeReference(h)
    h.server.script({ toolCalls: [draw('me at the beach', { image: 'reference' })] }, sendDrawn).fallback(FINISH)
    await h.client('alice').receive('send a selfie')
    await h.until(() => h.sent.length === 1, 'the picture sent')
    await h.settled()
    const [req] = sf.generations.requests
    expect(req.body).to.include({ prompt: 'me at the beach', image_size: '1024x1024', batch_size: 1 })
    expect(req.body.image).to.match(/^data:image\/png;base64,/)
    expect(inputOf(req.body.image)!.equals(me)).to.equal(true)
    expect(sentPicture(h.sent[0].content)!.equals(pictureOf('me at the beach', me))).to.equal(true)
  })

  it('a 21 MB picture behind the link is TooLarge', async () => {
    const { h, sf } = await rig()
    sf.generations.script({ hugeBytes: 21 * MB })
    const [big] = await turn(h, [draw('a huge one')])
    expect(big.error.name).to.equal('TooLarge')
    expect(big.error.message).to.include('more than 20 MB')
  })

  it('a server that never answers fails after the entry\'s timeoutMs', async () => {
    const { h, sf } = await rig({ kolors: { timeoutMs: 300 } })
    sf.generations.script({ hang: true })
    const [late] = await turn(h, [draw('a slow one')])
    expect(late.error.name).to.equal('Failed')
    expect(late.error.message).to.include('no answer within 300 ms')
  })

  it('config: provider siliconflow is an image entry\'s; a chat entry, or another provider for an image entry, is refused', () => {
    const chat = { id: 'main', baseURL: 'http://127.0.0.1:1/v1', model: 'm', maxRetries: 0, timeoutMs: 1000, contextTokens: 0, fallback: [] as string[] }
    const kolors = { id: 'kolors', kind: 'image', provider: 'siliconflow', baseURL: 'https://api.siliconflow.cn/v1', model: 'Kwai-Kolors/Kolors', maxRetries: 0, timeoutMs: 1000 }
    const profile = { id: 'neko', model: 'main', claims: [{ bot: '*', channels: ['*'] }], maxSteps: 20, images: { model: 'kolors' } }
    const ok = checkConfig({ models: [chat, kolors], profiles: [profile] } as any)
    expect(ok.problems).to.deep.equal([])
    expect(ok.profiles[0].images).to.include({ model: 'kolors' })
    const bad = checkConfig({ models: [{ ...chat, provider: 'siliconflow' }, { ...kolors, id: 'k2', provider: 'anthropic' }], profiles: [] } as any)
    const by = Object.fromEntries(bad.problems.map(p => [p.path, p.message]))
    expect(by['models[0].provider']).to.match(/^siliconflow is for image models/)
    expect(by['models[1].provider']).to.match(/^an image model goes through openai-compatible .* or siliconflow/)
  })
})
