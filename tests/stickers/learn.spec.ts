// Learning stickers (SPEC §19 "learn", docs/stickers.md "Learning and review") through the real
// OneBot adapter and the NapCat fake: images served on 127.0.0.1 (kept at arrival), the vision
// model's check answered by the fake OpenAI server. An image seen 3 times in the window is learned
// as waiting, is neither offered nor sendable before approval, and is after; a banned one never.
import { expect } from 'chai'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runtimeHome } from '../../src/runtime/runtime'
import { STATE_FILE } from '../../src/stickers/state-book'
import type { Entry } from '../../src/history/entries'
import { learnVerdict } from '../../src/stickers/learn-check'
import { LEARN_FILE, Learner, learnedName, type LearnAssets } from '../../src/stickers/learner'
import { StickerLibrary } from '../../src/stickers/library'
import { Sightings } from '../../src/stickers/sightings'
import { systemClock, type Clock, type Timer } from '../../src/util/clock'
import type { Logger } from '../../src/util/logger'
import { seg } from '../support/fakes/onebot'
import { messagesOf } from '../support/fake-openai'
import { OneBotHarness, call } from '../support/onebot-harness'
import { tinyPng } from '../support/tiny-png'
import { MediaServer } from '../support/media-server'
import { createHash } from 'node:crypto'
import { stickersPart } from '../../src/stickers/part'

const FROG = tinyPng(0x33aa33, 4, 4)
const CAT = tinyPng(0xaa3333, 4, 4)
const PHOTO = tinyPng(0x3333aa, 4, 4)
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')
const FIT = (d: string) => JSON.stringify({ isSticker: true, fit: true, description: d, tags: ['ok', '好的', 'thumbs up'] })

describe('stickers: learning from groups, through the real OneBot adapter', function () {
  this.timeout(30000)
  let h: OneBotHarness | undefined
  let media: MediaServer
  let n = 0
  // `/<name>.png?n=<any>`: each post a new link, as QQ's rkey links are
  beforeEach(async () => {
    media = await MediaServer.start()
    for (const [name, data] of Object.entries({ frog: FROG, cat: CAT, photo: PHOTO })) media.put(`/${name}.png`, data, 'image/png')
  })
  afterEach(async () => {
    await h?.stop()
    await media.close()
    h = undefined
  })

  const start = (learn: object = {}, stickers: object = {}) => OneBotHarness.start({
    profile: {
      attachment: { visionModel: 'main' },
      stickers: { enabled: true, learn: { enabled: true, groups: ['group:555'], ...learn }, ...stickers },
    },
  })
  const folder = () => join(runtimeHome(h!.dataDir, 'neko', h!.botId), 'local', 'stickers')
  /** a group message with the image; each post is a new message (and a new link) */
  async function post(group: number, image: string, user = 2001) {
    await h!.napcat.groupMessage({ group, user, nickname: `u${user}`, segments: [seg.text('lol '), seg.image({ url: `${media.base}/${image}.png?n=${n++}` })] })
  }
  /** waits until the runtime has stored `count` facts, then for the learner */
  async function settle(count: number) {
    for (let tries = 0; ; tries++) {
      const rt = (await h!.app.kotodama.list())[0]
      const facts = rt ? (await rt.loaded()).flatMap(c => c.entries).filter(e => e.type === 'fact').length : 0
      if (facts >= count) {
        await rt.assets.idle()
        await rt.written()
        return rt
      }
      if (tries > 800) throw new Error(`timed out waiting for ${count} facts`)
      await h!.idle(5)
    }
  }
  const visionRequests = () => h!.server.requests.filter(r => JSON.stringify(r.body).includes('keep sending this image'))

  it('three sightings in the window: learned as waiting with its label, not offered or sendable until approved; banned: never', async () => {
    h = await start()
    h.server.script({ content: FIT('A frog giving a thumbs up.') })
    await post(555, 'frog', 2001)
    await post(555, 'frog', 2002)
    let rt = await settle(2)
    expect(rt.part(stickersPart)!.library.list(), 'two sightings are not enough').to.have.length(0)
    expect(visionRequests()).to.have.length(0)
    await post(555, 'frog', 2003)
    rt = await settle(3)
    const name = learnedName(sha(FROG))
    const learned = rt.part(stickersPart)!.library.named(name)!
    expect(learned, 'learned').to.include({ state: 'waiting', description: 'A frog giving a thumbs up.', sha256: sha(FROG) })
    expect(learned.source).to.include({ kind: 'learned', channel: 'group:555', user: '2003' })
    expect(await readFile(join(folder(), `${name}.png`))).to.deep.equal(FROG)
    expect(JSON.parse(await readFile(join(folder(), `${name}.json`), 'utf8'))).to.include({ description: 'A frog giving a thumbs up.' })
    const state = JSON.parse(await readFile(join(folder(), STATE_FILE), 'utf8')).stickers[sha(FROG)]
    expect(state).to.include({ name, state: 'waiting' })
    expect(visionRequests()).to.have.length(1)
    // the check saw the image
    expect(JSON.stringify(visionRequests()[0].body)).to.contain('data:image/png;base64,')
    // a fourth sighting asks nothing again
    await post(555, 'frog', 2004)
    rt = await settle(4)
    expect(visionRequests()).to.have.length(1)

    // waiting: not in the prompt, and a send of it is dropped: nothing reaches NapCat
    const sendIt = () => h.server.script({ toolCalls: [call('send_message', { messages: [`<sticker name="${name}"/>`, 'ok'] })] })
    sendIt()
    await h.napcat.privateMessage({ user: 3001, text: 'hello' })
    await h.server.waitForRequests(2)
    await h.settled()
    expect(String(messagesOf(h.server.requests[1])[0].content)).to.not.contain(name)
    expect(rt.part(stickersPart)!.library.byName(name), 'not sendable while waiting').to.equal(undefined)
    expect(h.napcat.sent.flatMap(m => m.segments).filter(g => g.type === 'image'), 'nothing sent while waiting').to.have.length(0)

    // approved: offered and sendable
    await rt.part(stickersPart)!.library.setState(learned, 'approved')
    sendIt()
    await h.napcat.privateMessage({ user: 3001, text: 'again' })
    await h.server.waitForRequests(3)
    await h.settled()
    expect(String(messagesOf(h.server.requests[2])[0].content)).to.contain(`- ${name} — A frog giving a thumbs up.`)
    expect(rt.part(stickersPart)!.library.byName(name)).to.include({ state: 'approved' })
    // sent with NapCat's sticker mark and the learned file's bytes (tests/koishi/onebot-stickers.spec.ts checks the mark's source)
    const [image] = h.napcat.sent.flatMap(m => m.segments).filter(g => g.type === 'image')
    expect(image.data).to.include({ sub_type: 1, summary: '[动画表情]', file: `base64://${FROG.toString('base64')}` })

    // banned: neither
    await rt.part(stickersPart)!.library.setState(rt.part(stickersPart)!.library.named(name)!, 'banned')
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.napcat.privateMessage({ user: 3001, text: 'once more' })
    await h.server.waitForRequests(4)
    await h.settled()
    expect(String(messagesOf(h.server.requests[3])[0].content)).to.not.contain(name)
    expect(rt.part(stickersPart)!.library.byName(name)).to.equal(undefined)
  })

  it('a photo the vision model turns down is remembered and never asked about again; perDay is kept', async () => {
    h = await start({ seenTimes: 2, perDay: 1 })
    h.server.script({ content: JSON.stringify({ isSticker: false, fit: false }) }, { content: FIT('A cat waving.') })
    for (const u of [1, 2, 3, 4]) await post(555, 'photo', 2000 + u)
    let rt = await settle(4)
    expect(visionRequests()).to.have.length(1)
    expect(rt.part(stickersPart)!.library.list()).to.have.length(0)
    await h.until(() => existsSync(join(rt.home, LEARN_FILE)), 'the file of images not learned')
    expect(JSON.parse(await readFile(join(rt.home, LEARN_FILE), 'utf8')).rejected).to.have.property(sha(PHOTO))
    await post(555, 'cat', 2001)
    await post(555, 'cat', 2002)
    rt = await settle(6)
    expect(rt.part(stickersPart)!.library.list().map(s => s.name)).to.deep.equal([learnedName(sha(CAT))])
    // perDay 1: the frog is not learned today, and not even checked
    await post(555, 'frog', 2001)
    await post(555, 'frog', 2002)
    rt = await settle(8)
    expect(visionRequests()).to.have.length(2)
    expect(rt.part(stickersPart)!.library.list()).to.have.length(1)
    expect(h.logs.some(l => /were learned in group:555 today \(learn\.perDay\)/.test(l.text))).to.equal(true)
  })

  it('a group not in learn.groups learns nothing; the vision model failing is retried later and nothing is lost', async () => {
    h = await start({ seenTimes: 2 })
    await post(777, 'frog', 2001)
    await post(777, 'frog', 2002)
    let rt = await settle(2)
    expect(rt.part(stickersPart)!.library.list()).to.have.length(0)
    expect(visionRequests()).to.have.length(0)
    h.server.script({ content: 'I think this is a frog.' })
    await post(555, 'cat', 2001)
    await post(555, 'cat', 2002)
    rt = await settle(4)
    expect(visionRequests()).to.have.length(1)
    expect(rt.part(stickersPart)!.library.list()).to.have.length(0)
    expect(h.logs.some(l => /could not check an image of group:555 .*holds no JSON object.*tried again in 1 min/.test(l.text))).to.equal(true)
  })

  it('learning off costs nothing: no image is hashed or counted', async () => {
    h = await start({ enabled: false, seenTimes: 1 })
    await post(555, 'frog', 2001)
    const rt = await settle(1)
    expect(rt.part(stickersPart)!.library.list()).to.have.length(0)
    expect(visionRequests()).to.have.length(0)
    // the stickers part does not even look at appended entries
    expect(rt.parts.find(p => p.name === 'stickers')).to.not.have.property('appended')
    expect((await readdir(rt.home)).includes(LEARN_FILE)).to.equal(false)
  })
})

describe('stickers: the learner on its own', function () {
  let dir: string
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'kotodama-learn-')) })
  afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

  const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} }
  /** a clock whose timers run when the test says */
  function manualClock() {
    let now = Date.parse('2025-05-01T10:00:00')
    const timers: { at: number; fn: () => void; done: boolean }[] = []
    const clock: Clock = {
      ...systemClock, now: () => now,
      setTimeout(fn, ms) {
        const t = { at: now + ms, fn, done: false }
        timers.push(t)
        const timer: Timer = { cancel: () => { t.done = true }, unref: () => timer }
        return timer
      },
    }
    const advance = (ms: number) => {
      now += ms
      for (const t of timers) if (!t.done && t.at <= now) { t.done = true; t.fn() }
    }
    return { clock, advance }
  }
  /** assets of one image each, as the asset store keeps them */
  function assetsOf(images: Record<string, Buffer>): LearnAssets {
    return {
      arrivals: { settled: async () => {} },
      sidecar: async id => ({ id, source: '', createdAt: '', sha256: sha(images[id]), byteLength: images[id].length, mediaType: 'image/png' }),
      bytes: async id => ({ data: images[id], mediaType: 'image/png' }),
    }
  }
  const callsAnswering = (answers: (string | Error)[]) => {
    const calls = {
      asked: 0,
      handle: () => ({}),
      run: async () => {
        calls.asked++
        const a = answers.shift() ?? new Error('no answer')
        if (a instanceof Error) throw a
        return { result: { text: a }, handle: { config: { id: 'eye' } } }
      },
    }
    return calls
  }
  const fact = (id: string, asset: string, at: number, user = 'u1'): Entry => ({
    type: 'fact', at, fact: {
      id, at, bot: 'onebot:1', channel: 'group:555', direct: false, user: { id: user, name: user }, content: `<img src="asset://${asset}"/>`,
    },
  })
  const config = { enabled: true, groups: ['group:*'], seenTimes: 2, windowMinutes: 30, perDay: 20 }

  it('a failing vision model is asked again after a pause; after the last try the sticker waits unchecked; nothing is lost', async () => {
    const { clock, advance } = manualClock()
    const library = new StickerLibrary({ dir, logger: quiet, clock, checkEveryMs: 0 })
    const calls = callsAnswering([new Error('HTTP 503'), 'nonsense', new Error('timeout'), new Error('HTTP 500')])
    const learner = new Learner({ library, config, assets: assetsOf({ a: FROG }), model: 'eye', calls: calls as any, clock, logger: quiet, home: dir })
    learner.appended([fact('m1', 'a', clock.now()), fact('m2', 'a', clock.now() + 1000)])
    await learner.idle()
    expect(calls.asked).to.equal(1)
    advance(59_000)
    await learner.idle()
    expect(calls.asked, 'not before a minute').to.equal(1)
    for (const [wait, asked] of [[1000, 2], [4 * 60_000, 3], [16 * 60_000, 4]]) {
      advance(wait)
      await learner.idle()
      expect(calls.asked).to.equal(asked)
    }
    expect(library.list().map(s => [s.name, s.state, s.description])).to.deep.equal([[learnedName(sha(FROG)), 'waiting', undefined]])
    await learner.stop()
    await library.stop()
  })

  it('sightings outside the window do not add up; the same message twice counts once; the LRU stays bounded', async () => {
    const s = new Sightings({ times: 3, windowMs: 30 * 60_000, max: 100 })
    expect(s.see('h', 'm1', 0)).to.equal(false)
    expect(s.see('h', 'm1', 1)).to.equal(false)
    expect(s.see('h', 'm2', 31 * 60_000)).to.equal(false)
    expect(s.see('h', 'm3', 32 * 60_000)).to.equal(false)
    expect(s.see('h', 'm4', 33 * 60_000)).to.equal(true)
    for (let i = 0; i < 1000; i++) s.see(`x${i}`, 'm', i)
    expect(s.size).to.equal(100)
  })

  it('two runtimes sharing the folder learn the same sticker at once: one file, one record', async () => {
    const { clock } = manualClock()
    const one = new StickerLibrary({ dir, logger: quiet, clock, checkEveryMs: 0 })
    const two = new StickerLibrary({ dir, logger: quiet, clock, checkEveryMs: 0 })
    const homes = [await mkdtemp(join(tmpdir(), 'kotodama-learn-home-')), await mkdtemp(join(tmpdir(), 'kotodama-learn-home-'))]
    const learners = [one, two].map((library, i) => new Learner({
      library, config, assets: assetsOf({ a: FROG }), model: 'eye', calls: callsAnswering([FIT('A frog.')]) as any, clock, logger: quiet, home: homes[i],
    }))
    for (const l of learners) l.appended([fact('m1', 'a', clock.now()), fact('m2', 'a', clock.now())])
    await Promise.all(learners.map(l => l.idle()))
    const files = (await readdir(dir)).filter(f => !f.startsWith('.'))
    expect(files.sort()).to.deep.equal([`${learnedName(sha(FROG))}.json`, `${learnedName(sha(FROG))}.png`])
    await one.scan()
    expect(one.list()).to.have.length(1)
    expect(Object.keys(JSON.parse(await readFile(join(dir, STATE_FILE), 'utf8')).stickers)).to.deep.equal([sha(FROG)])
    for (const l of learners) await l.stop()
    await Promise.all([one.stop(), two.stop()])
    for (const home of homes) await rm(home, { recursive: true, force: true })
  })

  it('answers: only a JSON yes is a yes', () => {
    expect(learnVerdict(FIT('A frog.'))).to.deep.include({ kind: 'fit' })
    expect(learnVerdict('{"isSticker": true, "fit": false}')).to.deep.equal({ kind: 'rejected', why: 'not fit to send' })
    expect(learnVerdict('{"isSticker": "yes", "fit": true}').kind).to.equal('nonsense')
    expect(learnVerdict('sure!').kind).to.equal('nonsense')
    expect(learnVerdict('{"isSticker": true, "fit": true}')).to.deep.equal({ kind: 'fit' })
  })
})
