// An inbound image the sticker library knows by its bytes (SPEC §19 "What the mind sees"), renderer
// by renderer against a real AssetStore whose fetcher is a double: the bounded wait for the arrival
// fetch (src/inbound/sticker-match.ts), which images wait, and what reads when the bytes are late.
// Element shapes as koishi-plugin-adapter-onebot 6.9.4 decodes NapCat's image segment (camel-cased keys).
import { expect } from 'chai'
import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { h } from 'koishi'
import { AssetStore } from '../../src/resources/schemes/asset-store'
import { renderElements, type RenderKit } from '../../src/inbound/render'
import type { StickerLabel } from '../../src/inbound/kit'
import { tinyPng } from '../support/tiny-png'

const CAT = tinyPng(0xff8800)
const PHOTO = tinyPng(0x0000ff, 3, 3)
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')
const ASSET = '[0-9a-f-]{36}'

describe('inbound: images the sticker library knows', function () {
  let dir: string
  let assets: AssetStore
  /** ms each fetch takes */
  let delay = 0
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-match-'))
    delay = 0
    assets = new AssetStore(dir, async url => {
      await new Promise(r => setTimeout(r, delay))
      return { data: url.includes('cat') ? CAT : PHOTO, mediaType: 'image/png' }
    })
  })
  afterEach(async () => {
    assets.stop()
    await rm(dir, { recursive: true, force: true })
  })

  const library: Record<string, StickerLabel> = { [sha(CAT)]: { name: 'happy-cat', description: 'a cat jumping for joy' } }
  const kit = (waitMs = 1500): RenderKit => ({ assets, stickers: { of: s => library[s], until: Date.now() + waitMs } })
  const read = async (el: h, k = kit()) => (await renderElements([el], k)).join('')
  const marked = (url: string, summary = '[动画表情]') => h('img', { src: url, subType: 1, summary, file: 'A.gif', fileSize: '2048' })

  it('a marked sticker whose bytes are a library sticker\'s reads with its name and description', async () => {
    delay = 30
    expect(await read(marked('https://q.example/cat.gif'))).to.match(new RegExp(`^\\[sticker: asset://${ASSET} happy-cat: a cat jumping for joy\\]$`))
    expect(await read(marked('https://q.example/cat2.gif?x', '[好耶]'))).to.match(/ 好耶; happy-cat: a cat jumping for joy\]$/)
  })

  it('an unmarked small image with a library sticker\'s bytes reads as that sticker; a photo stays an image', async () => {
    const small = (url: string) => h('img', { src: url, file: 'B.png', fileSize: '4096', subType: 0 })
    expect(await read(small('https://q.example/cat.png'))).to.match(new RegExp(`^\\[sticker: asset://${ASSET} happy-cat: a cat jumping for joy\\]$`))
    expect(await read(small('https://q.example/photo.png'))).to.match(new RegExp(`^<img src="asset://${ASSET}"/>$`))
    // bytes known at once (a data: source): matched without a declared size
    expect(await read(h('img', { src: `data:image/png;base64,${CAT.toString('base64')}` }))).to.match(/^\[sticker: .* happy-cat/)
  })

  it('a big unmarked image does not wait for its bytes; without the library nothing is matched', async () => {
    delay = 200
    const started = Date.now()
    const text = await read(h('img', { src: 'https://q.example/cat-big.png', fileSize: String(5 << 20) }))
    expect(text).to.match(/^<img src="asset:/)
    expect(Date.now() - started).to.be.below(150)
    expect(await read(marked('https://q.example/cat3.gif'), { assets })).to.match(new RegExp(`^\\[sticker: asset://${ASSET}\\]$`))
  })

  it('the wait is bounded for the whole message: late bytes read as a sticker without its label', async () => {
    delay = 400
    const started = Date.now()
    const out = (await renderElements([marked('https://q.example/cat-a.gif'), marked('https://q.example/cat-b.gif')], kit(100))).join('')
    const took = Date.now() - started
    expect(out).to.match(new RegExp(`^\\[sticker: asset://${ASSET}\\]\\[sticker: asset://${ASSET}\\]$`))
    expect(took).to.be.below(350)
  })
})
