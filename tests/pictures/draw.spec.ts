// Pictures (SPEC §24) through Koishi + plugin-mock, the chat model on FakeOpenAI and the image model
// on FakeImages, both through the real AI SDK providers: a drawn picture reaches the outbound as the
// fake's bytes; perUserDay counted by code per person, kept across a restart; no draw tool without
// images.model; an edit of the persona's reference picture.
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fieldsOf, pictureOf, type EditBody } from '../support/fake-images'
import { toolNamesOf } from '../support/fake-openai'
import { Harness, call } from '../support/harness'
import { drawResults, pictureRig, sendDrawn, sentPicture, writeReference, type PictureRig } from '../support/pictures'

const FINISH = { toolCalls: [call('finish', {})] }
const draw = (prompt: string, more: Record<string, unknown> = {}) => call('draw', { prompt, ...more })

describe('pictures: draw', function () {
  this.timeout(20000)
  let r: PictureRig | undefined
  let plain: Harness | undefined
  afterEach(async () => {
    await r?.h.stop()
    await r?.images.close()
    await plain?.stop()
    r = plain = undefined
  })

  it('a drawn picture reaches the chat as the image server\'s bytes when the mind sends <img src=asset://…>', async () => {
    r = await pictureRig({ images: { size: '512x512' } })
    const { h, images } = r
    h.server.script({ toolCalls: [draw('a cat in a hat')] }, sendDrawn).fallback(FINISH)
    await h.client('alice').receive('draw me a cat')
    await h.until(() => h.sent.length === 1, 'the picture sent')
    await h.settled()
    const [req] = images.generations.requests
    expect(req.body).to.include({ model: 'dall-e-3', prompt: 'a cat in a hat', n: 1, size: '512x512' })
    expect(req.headers.authorization).to.equal('Bearer sk-img')
    const [result] = drawResults(h, 1, 1)
    expect(result.ok).to.equal(true)
    expect(result.url).to.match(/^asset:\/\/[\w-]+$/)
    expect(sentPicture(h.sent[0].content)!.equals(pictureOf('a cat in a hat'))).to.equal(true)
  })

  it('a server that answers a url: its bytes are fetched and kept, the url never reaches the model', async () => {
    r = await pictureRig()
    const { h, images } = r
    images.generations.script({ url: true })
    h.server.script({ toolCalls: [draw('a red fox')] }, sendDrawn).fallback(FINISH)
    await h.client('alice').receive('a fox please')
    await h.until(() => h.sent.length === 1, 'the picture sent')
    await h.settled()
    expect([...images.fetched.values()]).to.deep.equal([1])
    expect(sentPicture(h.sent[0].content)!.equals(pictureOf('a red fox'))).to.equal(true)
    expect(JSON.stringify(h.server.requests.map(q => q.body))).to.not.include('/v1/images/files/')
  })

  it('perUserDay: a person\'s third picture is refused, another person\'s first is drawn, and a restart does not reset the day', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'kotodama-pictures-'))
    try {
      r = await pictureRig({ images: { perUserDay: 2 }, harness: { dataDir } })
      const { h, images } = r
      h.server.script({ toolCalls: [draw('one'), draw('two'), draw('three')] }, FINISH, { toolCalls: [draw('four')] }, FINISH)
      await h.client('alice').receive('three pictures please')
      await h.server.waitForRequests(2)
      await h.settled()
      const [a, b, c] = drawResults(h, 1, 3)
      expect([a.ok, b.ok, c.ok]).to.deep.equal([true, true, false])
      expect(c.error).to.include({ name: 'TooMany' })
      expect(c.error.message).to.include('images.perUserDay')
      expect(images.generations.requests).to.have.length(2)
      await h.client('bob').receive('one for me')
      await h.server.waitForRequests(4)
      await h.settled()
      expect(drawResults(h, 3, 1)[0].ok).to.equal(true)
      expect(images.generations.requests).to.have.length(3)
      await h.stop()
      await images.close()

      r = await pictureRig({ images: { perUserDay: 2 }, harness: { dataDir } })
      r.h.server.script({ toolCalls: [draw('five')] }, FINISH)
      await r.h.client('alice').receive('and another')
      await r.h.server.waitForRequests(2)
      await r.h.settled()
      expect(drawResults(r.h, 1, 1)[0].error).to.include({ name: 'TooMany' })
      expect(r.images.generations.requests).to.have.length(0)
    } finally {
      await r?.h.stop()
      await r?.images.close()
      r = undefined
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('perUserDay does not hold the bot owner (trust.owners), as budgets.perUserDay does not; their pictures are still priced', async () => {
    r = await pictureRig({ images: { perUserDay: 1 }, painter: { price: { image: 0.04 } }, harness: { trust: { owners: ['mock:carol'] } } })
    const { h, images } = r
    h.server.script({ toolCalls: [draw('one'), draw('two')] }, FINISH, { toolCalls: [draw('three'), draw('four')] }, FINISH)
    await h.client('carol').receive('two please')
    await h.server.waitForRequests(2)
    await h.settled()
    expect(drawResults(h, 1, 2).map(x => x.ok)).to.deep.equal([true, true])
    await h.client('alice').receive('two for me')
    await h.server.waitForRequests(4)
    await h.settled()
    expect(drawResults(h, 3, 2).map(x => x.ok ? 'ok' : x.error.name)).to.deep.equal(['ok', 'TooMany'])
    expect(images.generations.requests).to.have.length(3)
    const [rt] = await h.app.kotodama.list()
    expect(rt.usage.snapshot().find(u => u.model === 'painter')!.today).to.include({ images: 3, cost: 0.12 })
  })

  it('no draw tool without images.model: the request is the same as a profile without the section', async () => {
    plain = await Harness.start()
    plain.server.script(FINISH)
    await plain.client('alice').receive('hi')
    await plain.server.waitForRequests(1)
    const bare = plain.server.requests[0].body.tools
    await plain.stop()
    plain = await Harness.start({ profile: { images: { model: '', perUserDay: 3 } } })
    plain.server.script(FINISH)
    await plain.client('alice').receive('hi')
    await plain.server.waitForRequests(1)
    expect(plain.server.requests[0].body.tools).to.deep.equal(bare)
    expect(toolNamesOf(plain.server.requests[0])).to.not.include('draw')
    await plain.stop()
    plain = undefined
    r = await pictureRig()
    r.h.server.script(FINISH)
    await r.h.client('alice').receive('hi')
    await r.h.server.waitForRequests(1)
    expect(toolNamesOf(r.h.server.requests[0])).to.include('draw')
  })

  it('an edit of the persona\'s reference picture goes to /v1/images/edits with its bytes', async () => {
    r = await pictureRig({ images: { reference: 'local://me.png' } })
    const { h, images } = r
    const me = await writeReference(h)
    h.server.script({ toolCalls: [draw('me at the beach', { image: 'reference' })] }, sendDrawn).fallback(FINISH)
    await h.client('alice').receive('send a selfie')
    await h.until(() => h.sent.length === 1, 'the picture sent')
    await h.settled()
    const [req] = images.edits.requests
    const body = req.body as EditBody
    expect(fieldsOf(req)).to.include({ model: 'dall-e-3', prompt: 'me at the beach', size: '1024x1024' })
    expect(body.images).to.have.length(1)
    expect(body.images[0].data.equals(me)).to.equal(true)
    expect(images.generations.requests).to.have.length(0)
    expect(sentPicture(h.sent[0].content)!.equals(pictureOf('me at the beach', me))).to.equal(true)
  })

  it('an image the turn may not read, or not a picture URL, is refused before the server is asked', async () => {
    r = await pictureRig()
    const { h, images } = r
    h.server.script({ toolCalls: [draw('x', { image: 'https://example.com/a.png' }), draw('y', { image: 'reference' }), draw('z', { image: 'local://none.png' })] }, FINISH)
    await h.client('alice').receive('edit')
    await h.server.waitForRequests(2)
    await h.settled()
    const results = drawResults(h, 1, 3)
    expect(results.map(x => x.error?.name)).to.deep.equal(['BadImage', 'BadImage', 'BadImage'])
    expect(results[1].error.message).to.include('images.reference')
    expect(images.edits.requests).to.have.length(0)
  })
})
