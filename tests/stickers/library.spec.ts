// The sticker library (SPEC §19, docs/stickers.md): the folder scanned into stickers (by content
// hash, labels checked, bad files left out with one log line), the state file shared by runtimes,
// the prompt section, labels by the vision model, search, and sticker:// for read.
import { expect } from 'chai'
import { mkdir, mkdtemp, readFile, rm, truncate, utimes, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Labeller } from '../../src/stickers/labeller'
import { StickerLibrary } from '../../src/stickers/library'
import { stickerSection } from '../../src/stickers/section'
import type { CallPort } from '../../src/model/calls'
import { runtimeHome } from '../../src/runtime/runtime'
import { systemClock, type Clock } from '../../src/util/clock'
import type { Logger } from '../../src/util/logger'
import { Harness, call } from '../support/harness'
import { FakeOpenAI, imagePartsOf, messagesOf, toolResultsOf } from '../support/fake-openai'
import { tinyPng } from '../support/tiny-png'
import { recallPart } from '../../src/recall/part'
import { stickersPart } from '../../src/stickers/part'

function recordingLogger() {
  const lines: string[] = []
  const fmt = (f: string, args: unknown[]) => { let i = 0; return String(f).replace(/%[sd]/g, () => String(args[i++])) }
  const logger: Logger = {
    debug() {}, info: (f, ...a) => lines.push(`info ${fmt(f, a)}`), warn: (f, ...a) => lines.push(`warn ${fmt(f, a)}`), error: (f, ...a) => lines.push(`error ${fmt(f, a)}`),
  }
  return { logger, lines }
}

describe('sticker library', function () {
  let dir: string
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'kotodama-stickers-')) })
  afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

  const library = (logger: Logger, o: Partial<ConstructorParameters<typeof StickerLibrary>[0]> = {}) =>
    new StickerLibrary({ dir, logger, clock: systemClock, checkEveryMs: 0, ...o })

  it('scans images by their bytes: labels read, the same image under two names is one sticker, bad files left out once', async () => {
    const { logger, lines } = recordingLogger()
    await writeFile(join(dir, 'happy.png'), tinyPng(0xff0000))
    await writeFile(join(dir, 'happy.json'), JSON.stringify({ description: 'A cat grinning.', tags: ['happy', '开心'] }))
    await writeFile(join(dir, 'again.png'), tinyPng(0xff0000))
    await writeFile(join(dir, 'sad.webp.png'), tinyPng(0x0000ff))
    await writeFile(join(dir, 'notes.png'), 'this is text, not a picture')
    await writeFile(join(dir, 'huge.gif'), Buffer.from('GIF89a'))
    await truncate(join(dir, 'huge.gif'), 30_000_000)
    await writeFile(join(dir, 'broken.png'), tinyPng(0x00ff00))
    await writeFile(join(dir, 'broken.json'), '{ "description": "oops", ')
    await writeFile(join(dir, 'shape.png'), tinyPng(0x00ffff))
    await writeFile(join(dir, 'shape.json'), JSON.stringify({ description: 3, tags: 'x' }))
    await writeFile(join(dir, 'readme.txt'), 'not a sticker')
    const lib = library(logger)
    await lib.scan()
    expect(lib.list().map(s => s.name)).to.deep.equal(['again', 'broken', 'sad.webp', 'shape'])
    // "again" sorts first: it is the sticker, "happy" (same bytes) is left out and logged
    expect(lib.byName('happy')).to.equal(undefined)
    const again = lib.byName('again')!
    expect(again).to.include({ mediaType: 'image/png', state: 'approved' })
    expect(again.sha256).to.match(/^[0-9a-f]{64}$/)
    expect(lib.byHash(again.sha256)).to.equal(again)
    expect(lib.byName('broken')!.labelProblem).to.match(/not valid JSON/)
    expect(lib.byName('shape')!.labelProblem).to.match(/"description" is not a string/)
    expect(lines.filter(l => /notes\.png is not a PNG, GIF, JPEG or WebP image/.test(l))).to.have.length(1)
    expect(lines.filter(l => /huge\.gif is 28\.6 MB, over the 10\.0 MB a sticker may have; it is left out/.test(l))).to.have.length(1)
    expect(lines.filter(l => /happy\.png is the same image as .*again\.png/.test(l))).to.have.length(1)
    expect(lines.filter(l => /broken\.json .*not valid JSON.*works by its name/.test(l))).to.have.length(1)
    expect((await lib.bytes(again)).equals(tinyPng(0xff0000))).to.equal(true)
    const before = lines.length
    const version = lib.version
    await lib.scan()
    await lib.scan()
    expect(lines.length, 'each problem is logged once').to.equal(before)
    expect(lib.version).to.equal(version)
    await lib.stop()
  })

  it('looks again only at what changed, and picks up an added sticker and an edited label', async () => {
    const { logger } = recordingLogger()
    await writeFile(join(dir, 'a.png'), tinyPng(1))
    const lib = library(logger)
    await lib.scan()
    const v = lib.version
    await lib.scan()
    expect(lib.version).to.equal(v)
    await writeFile(join(dir, 'b.png'), tinyPng(2))
    await lib.scan()
    expect(lib.list().map(s => s.name)).to.deep.equal(['a', 'b'])
    expect(lib.version).to.equal(v + 1)
    // a label edited in place (the folder's mtime need not change)
    await writeFile(join(dir, 'a.json'), JSON.stringify({ description: 'first', tags: ['one'] }))
    await lib.scan()
    await writeFile(join(dir, 'a.json'), JSON.stringify({ description: 'second', tags: ['two'] }))
    const later = new Date(Date.now() + 5000)
    await utimes(join(dir, 'a.json'), later, later)
    await lib.scan()
    expect(lib.byName('a')).to.include({ description: 'second' })
    await lib.stop()
  })

  it('keeps states and uses in the state file; a missing folder is no error', async () => {
    const { logger, lines } = recordingLogger()
    const missing = new StickerLibrary({ dir: join(dir, 'none'), logger, clock: systemClock })
    await missing.scan()
    expect(missing.list()).to.deep.equal([])
    expect(lines.filter(l => /does not exist/.test(l))).to.have.length(1)
    await writeFile(join(dir, 'a.png'), tinyPng(1))
    await writeFile(join(dir, 'b.png'), tinyPng(2))
    const lib = library(logger)
    await lib.scan()
    lib.used(lib.byName('a')!, 1000)
    lib.used(lib.byName('a')!, 2000)
    await lib.setState(lib.byName('b')!, 'banned')
    expect(lib.byName('b')).to.equal(undefined)
    expect(lib.byHash(lib.named('b')!.sha256)).to.include({ state: 'banned' })
    await lib.idle()
    const file = JSON.parse(await readFile(join(dir, '.kotodama-stickers.json'), 'utf8'))
    expect(file.stickers[lib.named('a')!.sha256]).to.include({ uses: 2, lastUsed: 2000, name: 'a' })
    await lib.stop()
    const again = library(logger)
    await again.scan()
    expect(again.byName('a')).to.include({ uses: 2, lastUsed: 2000 })
    expect(again.byName('b')).to.equal(undefined)
    // a state file edited into nonsense: one warning, stickers still there
    await writeFile(join(dir, '.kotodama-stickers.json'), '{ nope')
    await again.scan()
    expect(again.byName('a')).to.not.equal(undefined)
    expect(lines.filter(l => /state file .* is not valid/.test(l))).to.have.length(1)
    await again.stop()
  })

  it('two libraries on one folder count each other\'s uses', async () => {
    const { logger } = recordingLogger()
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'a.png'), tinyPng(1))
    const one = library(logger)
    const two = library(logger)
    await Promise.all([one.scan(), two.scan()])
    one.used(one.byName('a')!, 10)
    await one.idle()
    two.used(two.byName('a')!, 20)
    await two.idle()
    await one.scan()
    expect(one.byName('a')).to.include({ uses: 2, lastUsed: 20 })
    await Promise.all([one.stop(), two.stop()])
  })
})

describe('sticker labels by the vision model', () => {
  let dir: string
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'kotodama-stickers-')) })
  afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

  it('a nonsense answer is logged once and retried later, after a pause; a good one becomes the label file', async () => {
    const { logger, lines } = recordingLogger()
    let now = 1_000_000
    const clock: Clock = { ...systemClock, now: () => now }
    const answers = ['I think it is a cat.', '```json\n{"description": "A cat waving hello.", "tags": ["hello", "你好", "hi"]}\n```']
    let asked = 0
    const calls = {
      handle: () => ({}),
      run: async () => { asked++; return { result: { text: answers.shift() }, handle: { config: { id: 'eye' } } } },
    } as unknown as CallPort
    await writeFile(join(dir, 'wave.png'), tinyPng(7))
    await writeFile(join(dir, 'owned.png'), tinyPng(8))
    await writeFile(join(dir, 'owned.json'), '{ broken')
    const library = new StickerLibrary({ dir, logger, clock, checkEveryMs: 0 })
    const labeller = new Labeller({ library, model: 'eye', calls, clock, logger })
    library.onScan = () => labeller.kick()
    await library.scan()
    await labeller.idle()
    // the sticker with a bad label file is the owner's to mend: not asked about
    expect(asked).to.equal(1)
    expect(lines.filter(l => /could not label .*wave\.png \(the answer holds no JSON object/.test(l))).to.have.length(1)
    labeller.kick()
    await labeller.idle()
    expect(asked, 'not before the pause').to.equal(1)
    now += 61_000
    labeller.kick()
    await labeller.idle()
    expect(asked).to.equal(2)
    expect(JSON.parse(await readFile(join(dir, 'wave.json'), 'utf8'))).to.deep.equal({ description: 'A cat waving hello.', tags: ['hello', '你好', 'hi'] })
    expect(library.byName('wave')).to.include({ description: 'A cat waving hello.' })
    expect(lines.filter(l => /wave\.png is labelled now/.test(l))).to.have.length(1)
    await labeller.stop()
    await library.stop()
  })
})

describe('stickers in a runtime', function () {
  this.timeout(20000)
  let h: Harness | undefined
  let eye: FakeOpenAI | undefined
  let shared: string | undefined
  afterEach(async () => {
    await h?.stop()
    await eye?.close()
    if (shared) await rm(shared, { recursive: true, force: true })
    h = eye = shared = undefined
  })

  const eyeModel = (baseURL: string) => ({ id: 'eye', baseURL, apiKey: 'sk-eye', model: 'eye-model', maxRetries: 0, timeoutMs: 5000 })
  const folderOf = (h: Harness) => join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local', 'stickers')
  async function put(dir: string, name: string, colour: number, label?: object) {
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, `${name}.png`), tinyPng(colour))
    if (label) await writeFile(join(dir, `${name}.json`), JSON.stringify(label))
  }
  const runtimeOf = (h: Harness) => h.app.kotodama.runtime(h.app.kotodama.profiles[0], `mock:${h.selfId}`)
  const systemOf = (h: Harness, i: number) => String(messagesOf(h.server.requests[i])[0].content)

  it('the prompt offers approved stickers sorted, up to `offer`; the same text every turn until the library changes', async () => {
    h = await Harness.start({ profile: { stickers: { enabled: true, offer: 2 } } })
    const dir = folderOf(h)
    await put(dir, 'zzz-sleep', 1, { description: 'A panda asleep on a desk.', tags: ['sleep', '睡觉'] })
    await put(dir, 'cat-happy', 2, { description: 'A cat grinning.', tags: ['happy', '开心'] })
    await put(dir, 'bare', 3)
    const runtime = await runtimeOf(h)
    h.server.script({ toolCalls: [call('finish', {})] }, { toolCalls: [call('finish', {})] }, { toolCalls: [call('finish', {})] })
    await h.client('alice').receive('hello')
    await h.server.waitForRequests(1)
    await h.settled()
    const first = systemOf(h, 0)
    expect(first).to.contain('Stickers: people here answer with stickers')
    expect(first).to.contain('## Stickers\nSend one with <sticker name="…"/> in a send_message message (at most one sticker a turn); '
      + '1 more: search({query}) finds them by what they show.\n- bare\n- cat-happy — A cat grinning.')
    expect(first).to.not.contain('zzz-sleep')
    await h.client('alice').receive('again')
    await h.server.waitForRequests(2)
    await h.settled()
    expect(systemOf(h, 1)).to.equal(first)
    await put(dir, 'aaa-wave', 4, { description: 'A dog waving.' })
    await h.client('alice').receive('and again')
    await h.server.waitForRequests(3)
    await h.settled()
    expect(systemOf(h, 2)).to.contain('- aaa-wave — A dog waving.\n- bare\n\n')
    expect(runtime.part(stickersPart)!.library.byName('aaa-wave')).to.include({ description: 'A dog waving.' })
  })

  it('a sticker without a label is labelled by attachment.visionModel, counted; read shows a sticker\'s image', async () => {
    eye = await FakeOpenAI.start()
    eye.script({ content: '{"description": "A frog giving a thumbs up.", "tags": ["ok", "好的", "thumbs up"]}', usage: { prompt_tokens: 300, completion_tokens: 20 } })
    const bootstrap = await Harness.start()
    const dir = folderOf(bootstrap)
    await bootstrap.stop()
    await put(dir, 'frog-ok', 5)
    h = await Harness.start({
      dataDir: bootstrap.dataDir, extraModels: [eyeModel(eye.baseURL)],
      profile: { attachment: { visionModel: 'eye', imageInput: true }, stickers: { enabled: true } },
    })
    const runtime = await runtimeOf(h)
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('hi')
    await h.until(() => existsSync(join(dir, 'frog-ok.json')), 'the label file')
    await h.settled()
    await runtime.part(stickersPart)!.library.idle()
    expect(runtime.part(stickersPart)!.library.byName('frog-ok')).to.include({ description: 'A frog giving a thumbs up.' })
    expect(eye.requests[0].body.messages[0].content.some((p: any) => p.type === 'image_url')).to.equal(true)
    expect(runtime.usage.snapshot().find(u => u.model === 'eye')?.today).to.include({ requests: 1, promptTokens: 300 })
    h.server.script({ toolCalls: [call('read', { url: 'sticker://frog-ok' })] }, { toolCalls: [call('finish', {})] })
    await h.client('bob').receive('show me the frog')
    await h.server.waitForRequests(3)
    await h.settled()
    expect(systemOf(h, 1)).to.contain('- frog-ok — A frog giving a thumbs up.')
    expect(imagePartsOf(h.server.requests[2]).some(u => u.startsWith('data:image/png;base64,'))).to.equal(true)
    const missing = await runtime.resources.read('sticker://nobody', { whole: false, maxBytes: 1 << 20 })
    expect(missing).to.include({ kind: 'error' })
    await rm(bootstrap.dataDir, { recursive: true, force: true })
  })

  it('search finds stickers by a Chinese tag and by an English word, beside messages', async () => {
    h = await Harness.start({ profile: { stickers: { enabled: true } } })
    const dir = folderOf(h)
    await put(dir, 'cat-happy', 2, { description: 'A cat grinning with closed eyes.', tags: ['happy', '开心'] })
    await put(dir, 'panda-tired', 3, { description: '熊猫趴在桌上，很累的样子。', tags: ['累', 'tired', 'exhausted'] })
    await put(dir, 'dog-thanks', 4, { description: 'A dog bowing.', tags: ['谢谢', 'thanks'] })
    const runtime = await runtimeOf(h)
    await runtime.part(stickersPart)!.library.scan()
    const key = 'private:alice'
    const top = async (q: string) => (await runtime.part(recallPart)!.recall.search(key, q, 5)).hits.map(x => x.url)
    expect((await top('开心'))[0]).to.equal('sticker://cat-happy')
    expect((await top('谢谢'))[0]).to.equal('sticker://dog-thanks')
    expect((await top('tired'))[0]).to.equal('sticker://panda-tired')
    expect((await top('很累'))[0]).to.equal('sticker://panda-tired')
    expect((await top('grinning cat'))[0]).to.equal('sticker://cat-happy')
    h.server.script({ toolCalls: [call('search', { query: '累' })] }, { toolCalls: [call('finish', {})] })
    await h.client('alice').receive('我好累')
    await h.server.waitForRequests(2)
    await h.settled()
    const result = JSON.parse(toolResultsOf(h.server.requests[1]).at(-1)!.content)
    const hit = result.hits.find((x: any) => x.url.startsWith('sticker://'))
    expect(hit).to.include({ url: 'sticker://panda-tired', id: null, who: null })
    expect(hit.text).to.equal('<sticker name="panda-tired"/> — 熊猫趴在桌上，很累的样子。 (累, tired, exhausted)')
    expect(result.hits.some((x: any) => x.url.startsWith('history://') && x.text === '我好累')).to.equal(true)
    // a banned sticker is neither offered nor found
    await runtime.part(stickersPart)!.library.setState(runtime.part(stickersPart)!.library.named('panda-tired')!, 'banned')
    expect((await top('tired')).includes('sticker://panda-tired')).to.equal(false)
    expect(runtime.systemPrompt()).to.not.contain('panda-tired')
  })

  it('two bots of one profile share a configured folder: uses add up, a ban reaches both', async () => {
    shared = await mkdtemp(join(tmpdir(), 'kotodama-shared-stickers-'))
    await put(shared, 'cat-happy', 2, { description: 'A cat grinning.', tags: ['开心'] })
    h = await Harness.start({ bots: ['515'], profile: { stickers: { enabled: true, dir: shared } } })
    const profile = h.app.kotodama.profiles[0]
    const one = await h.app.kotodama.runtime(profile, 'mock:514')
    const two = await h.app.kotodama.runtime(profile, 'mock:515')
    await Promise.all([one.part(stickersPart)!.library.scan(), two.part(stickersPart)!.library.scan()])
    one.part(stickersPart)!.library.used(one.part(stickersPart)!.library.byName('cat-happy')!, 1000)
    two.part(stickersPart)!.library.used(two.part(stickersPart)!.library.byName('cat-happy')!, 2000)
    await Promise.all([one.part(stickersPart)!.library.idle(), two.part(stickersPart)!.library.idle()])
    await one.part(stickersPart)!.library.setState(one.part(stickersPart)!.library.named('cat-happy')!, 'banned')
    await two.part(stickersPart)!.library.scan()
    expect(two.part(stickersPart)!.library.byName('cat-happy')).to.equal(undefined)
    const file = JSON.parse(await readFile(join(shared, '.kotodama-stickers.json'), 'utf8'))
    expect(Object.values(file.stickers)[0]).to.include({ uses: 2, lastUsed: 2000, state: 'banned' })
    expect(existsSync(join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local', 'stickers'))).to.equal(false)
  })
})

describe('sticker section', () => {
  it('cuts long descriptions, says when search is off, is empty without stickers', () => {
    const s = (name: string, description?: string) => ({ name, description, path: '', mediaType: 'image/png', sha256: name, size: 1, state: 'approved' as const })
    expect(stickerSection([], { maxPerTurn: 1, offer: 24, search: true })).to.equal('')
    const text = stickerSection([s('a', 'x'.repeat(100)), s('b')], { maxPerTurn: 2, offer: 24, search: false })
    expect(text).to.equal(`## Stickers\nSend one with <sticker name="…"/> in a send_message message (at most 2 stickers a turn).\n- a — ${'x'.repeat(59)}…\n- b`)
  })
})
