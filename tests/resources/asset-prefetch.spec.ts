// SPEC §19: inbound media are fetched when they arrive (in the background, bounded in concurrency
// and size), not on first read: QQ's media links expire within hours (NapCatQQ #101, #190).
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ResourceCenter } from '../../src/resources/center'
import type { ReadResult } from '../../src/resources/types'
import { AssetStore, type Fetcher } from '../../src/resources/schemes/asset-store'
import { assetScheme } from '../../src/resources/schemes/asset'
import { httpGet } from '../../src/resources/schemes/http-fetch'
import { seg } from '../support/fakes/onebot'
import { OneBotHarness } from '../support/onebot-harness'
import { until } from '../support/app-waits'
import { tinyPng } from '../support/tiny-png'
import { MediaServer, type MediaAnswer } from '../support/media-server'

const PNG = tinyPng(0, 1, 1)
const DIRECT = { whole: false, maxBytes: 1 << 25 }
const fetcher: Fetcher = async (url, o) => {
  const r = await httpGet(url, { allowPrivate: true, ...o })
  return { data: r.data, mediaType: r.mediaType }
}

/** Serves a PNG the first time a path is asked for, then 404 as an expired link. */
const once: MediaAnswer = (_req, res, hit) => {
  if (hit > 1) { res.writeHead(404).end('expired'); return }
  res.writeHead(200, { 'content-type': 'image/png' }).end(PNG)
}

const error = (r: ReadResult) => r.kind === 'error' ? r.error : undefined

describe('assets: fetched when they arrive', function () {
  let dir: string
  let store: AssetStore
  let center: ResourceCenter
  let server: MediaServer | undefined
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-prefetch-'))
    store = new AssetStore(dir, fetcher)
    center = new ResourceCenter()
    center.register(assetScheme(store))
  })
  afterEach(async () => {
    center.dispose()
    await store.idle()
    await server?.close()
    server = undefined
    await rm(dir, { recursive: true, force: true })
  })

  it('a fetched asset is read from disk after the platform\'s link expired (the server now answers 404)', async () => {
    server = await MediaServer.start(once)
    const id = await store.register(`${server.base}/cat.png`, {}, { fetchNow: true })
    await store.idle()
    expect(server.hits.get('/cat.png')).to.equal(1)
    const r = await center.read(`asset://${id}`, DIRECT)
    expect(r, JSON.stringify(r)).to.deep.include({ kind: 'file', data: PNG.toString('base64'), mediaType: 'image/png' })
    expect(await store.fetched(id)).to.equal(true)
    expect(server.hits.get('/cat.png'), 'the read did not go to the platform').to.equal(1)
  })

  it('a burst of 50 never runs more than the limit at once, counted by the server', async () => {
    server = await MediaServer.start((_req, res) => { setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG), 5) })
    store.arrivals.concurrency = 3
    const ids = await Promise.all(Array.from({ length: 50 }, (_, i) => store.register(`${server!.base}/${i}.png`, {}, { fetchNow: true })))
    await store.idle()
    expect(server.stats.peak).to.be.within(1, 3)
    expect(store.arrivals.peak).to.be.within(1, 3)
    expect([...server.hits.values()].reduce((a, b) => a + b, 0)).to.equal(50)
    expect(await Promise.all(ids.map(id => store.fetched(id)))).to.deep.equal(ids.map(() => true))
  })

  it('a source too large at arrival is not fetched again; a read says so', async () => {
    server = await MediaServer.start((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(5000)))
    store.maxBytes = 1000
    const id = await store.register(`${server.base}/big.png`, {}, { fetchNow: true })
    expect(await store.fetched(id)).to.equal(false)
    expect((await store.sidecar(id)).fetchFailure).to.include({ code: 'too_large' })
    const r = await center.read(`asset://${id}`, DIRECT)
    expect(error(r)?.code).to.equal('too_large')
    expect(error(r)?.message).to.match(/was larger than 1000 bytes when the message arrived; it is not fetched again/)
    expect(server.hits.get('/big.png')).to.equal(1)
  })

  it('a 404 at arrival is recorded; a read tries once more and says why the media is gone, without the link', async () => {
    server = await MediaServer.start((_req, res) => res.writeHead(404).end())
    const id = await store.register(`${server.base}/gone.png?rkey=secret`, {}, { fetchNow: true })
    expect(await store.fetched(id)).to.equal(false)
    expect((await store.sidecar(id)).fetchFailure).to.include({ code: 'not_found', reason: 'HTTP 404', status: 404 })
    const r = await center.read(`asset://${id}`, DIRECT)
    expect(error(r)?.message).to.equal(
      `asset://${id}: its media could not be fetched: HTTP 404; when the message arrived: HTTP 404 (the platform's link did not work even when the message arrived)`,
    )
    expect(server.hits.get('/gone.png?rkey=secret'), 'the read tried again').to.equal(2)
  })

  it('a link that failed at arrival and works at read time is read, and the failure is forgotten', async () => {
    server = await MediaServer.start((_req, res, hit) => hit === 1 ? res.writeHead(503).end() : res.writeHead(200, { 'content-type': 'image/png' }).end(PNG))
    const id = await store.register(`${server.base}/flaky.png`, {}, { fetchNow: true })
    expect(await store.fetched(id)).to.equal(false)
    expect(await center.read(`asset://${id}`, DIRECT)).to.deep.include({ kind: 'file', data: PNG.toString('base64') })
    expect((await store.sidecar(id)).fetchFailure).to.equal(undefined)
  })

  it('media never fetched (left for first read) say the link expired before it was fetched', async () => {
    server = await MediaServer.start((_req, res) => res.writeHead(404).end())
    const id = await store.register(`${server.base}/late.png`)
    const r = await center.read(`asset://${id}`, DIRECT)
    expect(error(r)?.message).to.equal(`asset://${id}: its media could not be fetched: HTTP 404 (the platform's link expired before it was fetched)`)
  })

  it('registration returns before the bytes arrive; a read during the fetch shares it', async () => {
    const held: ServerResponse[] = []
    server = await MediaServer.start((_req, res) => { held.push(res) })
    const id = await store.register(`${server.base}/held.png`, {}, { fetchNow: true })
    await until(() => held.length === 1, 'the arrival fetch to reach the server')
    expect((await store.sidecar(id)).fetchedAt).to.equal(undefined)
    let done = false
    const fetched = store.fetched(id).then(ok => { done = true; return ok })
    const read = center.read(`asset://${id}`, DIRECT)
    await new Promise(r => setImmediate(r))
    expect(done).to.equal(false)
    held[0].writeHead(200, { 'content-type': 'image/png' }).end(PNG)
    expect(await fetched).to.equal(true)
    expect(await read).to.deep.include({ kind: 'file', data: PNG.toString('base64') })
    expect(server.hits.get('/held.png'), 'one fetch for the arrival and the read').to.equal(1)
  })

  it('a read that shares a failing arrival fetch is told it failed when the message arrived', async () => {
    const held: ServerResponse[] = []
    server = await MediaServer.start((_req, res) => { held.push(res) })
    const id = await store.register(`${server.base}/soon-gone.png`, {}, { fetchNow: true })
    await until(() => held.length === 1, 'the arrival fetch to reach the server')
    // respond once the read has joined the fetch under way
    const bytes = store.bytes.bind(store)
    let joined = false
    store.bytes = (...args) => { joined = true; return bytes(...args) }
    const read = center.read(`asset://${id}`, DIRECT)
    await until(() => joined, 'the read to ask for the bytes')
    held[0].writeHead(404).end()
    expect(error(await read)?.message).to.equal(`asset://${id}: its media could not be fetched: HTTP 404 (the platform's link did not work when the message arrived)`)
    expect(server.hits.get('/soon-gone.png')).to.equal(1)
  })

  it('stop aborts fetches to a server that never answers and drops the waiting ones; nothing is recorded', async () => {
    const held: ServerResponse[] = []
    server = await MediaServer.start((_req, res) => { held.push(res) })
    const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => store.register(`${server!.base}/${i}.png`, {}, { fetchNow: true })))
    await until(() => held.length === 4, 'four fetches under way')
    expect(store.arrivals.size).to.deep.equal({ waiting: 2, running: 4 })
    center.dispose()   // what the runtime's stop does
    await store.idle()
    expect(store.arrivals.size).to.deep.equal({ waiting: 0, running: 0 })
    for (const id of ids) expect((await store.sidecar(id)).fetchFailure).to.equal(undefined)
    await store.register(`${server.base}/after.png`, {}, { fetchNow: true })
    expect(store.arrivals.size).to.deep.equal({ waiting: 0, running: 0 })
    expect(held).to.have.length(4)
  })

  it('past maxWaiting the oldest waiting are left for first read, told once', async () => {
    const held: ServerResponse[] = []
    server = await MediaServer.start((_req, res) => { held.push(res) })
    const told: string[] = []
    store.logger = { debug() {}, info() {}, error() {}, warn: (f: string, ...a: any[]) => { told.push([f, ...a].join(' ')) } }
    store.arrivals.concurrency = 1
    store.arrivals.maxWaiting = 2
    const ids: string[] = []
    for (let i = 0; i < 6; i++) ids.push(await store.register(`${server.base}/${i}.png`, {}, { fetchNow: true }))
    expect(store.arrivals.size).to.deep.equal({ waiting: 2, running: 1 })
    expect(store.arrivals.dropped).to.equal(3)
    expect(told).to.have.length(1)
    expect(told[0]).to.match(/more than 2 inbound media wait to be fetched; the oldest are fetched on first read/)
    for (let served = 0; served < 3; served++) {
      await until(() => held.length === served + 1, `fetch ${served + 1}`)
      held[served].writeHead(200, { 'content-type': 'image/png' }).end(PNG)
    }
    await store.idle()
    const fetched = await Promise.all(ids.map(id => store.fetched(id)))
    expect(fetched).to.deep.equal([true, false, false, false, true, true])
  })
})

describe('assets: fetched when they arrive, through the real OneBot adapter', function () {
  let h: OneBotHarness
  let server: MediaServer
  afterEach(async () => {
    await h?.stop()
    await server?.close()
  })

  it('an image posted in a group is kept at arrival; read after its link expired, the bytes are there', async () => {
    // QQ's answer for an expired rkey link (NapCatQQ #190)
    const expired = (res: ServerResponse) => res.writeHead(400, { 'content-type': 'application/json' })
      .end(JSON.stringify({ retcode: -5503007, retmsg: 'download url has expired', retryflag: 0 }))
    server = await MediaServer.start((req, res, hit) => {
      if (req.url!.startsWith('/late') || hit > 1) return expired(res)
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG)
    })
    h = await OneBotHarness.start()
    const link = `${server.base}/download?appid=1407&rkey=CAQS`
    await h.napcat.groupMessage({ group: 555, user: 2001, nickname: 'Alice', segments: [seg.text('look '), seg.image({ url: link })] })
    await until(() => server.hits.get('/download?appid=1407&rkey=CAQS') === 1, 'the fetch at arrival')
    const rt = (await h.app.kotodama.list())[0]
    await rt.assets.idle()
    const facts = async (n: number) => {
      for (let tries = 0; ; tries++) {
        const got = (await rt.loaded()).flatMap(c => c.entries).filter(e => e.type === 'fact').map(e => (e as any).fact.content as string)
        if (got.length >= n || tries > 400) return got
        await h.idle(5)
      }
    }
    const content = (await facts(1))[0]
    expect(content).to.match(/look <img src="asset:\/\/[0-9a-f-]{36}"/)
    const id = /asset:\/\/([0-9a-f-]{36})/.exec(content)![1]
    // the platform's link answers "expired" from now on; the bytes were kept
    const r = await rt.resources.read(`asset://${id}`, DIRECT)
    expect(r, JSON.stringify(r)).to.deep.include({ kind: 'file', data: PNG.toString('base64'), mediaType: 'image/png' })
    expect(server.hits.get('/download?appid=1407&rkey=CAQS')).to.equal(1)

    // an image whose link had already expired: the read says so in the platform's words
    await h.napcat.groupMessage({ group: 555, user: 2001, nickname: 'Alice', segments: [seg.image({ url: `${server.base}/late?rkey=X` })] })
    await until(() => server.hits.get('/late?rkey=X') === 1, 'the second fetch at arrival')
    await rt.assets.idle()
    const late = /asset:\/\/([0-9a-f-]{36})/.exec((await facts(2))[1])![1]
    const gone = await rt.resources.read(`asset://${late}`, DIRECT)
    expect(error(gone)?.message).to.equal(`asset://${late}: its media could not be fetched: HTTP 400: download url has expired; `
      + 'when the message arrived: HTTP 400: download url has expired (the platform\'s link did not work even when the message arrived)')
    expect(h.server.requests, 'no mention, no model call').to.have.length(0)
  })
})
