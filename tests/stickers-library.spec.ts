// The sticker library (SPEC §19, docs/stickers.md): the folder scanned into stickers (by content
// hash, labels checked, bad files left out with one log line), the state file shared by runtimes,
// the prompt section, labels by the vision model, search, and sticker:// for read.
import { expect } from 'chai'
import { mkdir, mkdtemp, readFile, rm, truncate, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { StickerLibrary } from '../src/stickers/library'
import { systemClock } from '../src/util/clock'
import type { Logger } from '../src/util/logger'
import { tinyPng } from './support/tiny-png'

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
