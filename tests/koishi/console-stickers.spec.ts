// The console's sticker view (SPEC §19, §12; docs/stickers.md "Console"): the listeners the page
// calls, on the plugin-mock harness with a stand-in console that records them: list, image,
// approve, ban, label edit, delete (moved aside), bad input refused, and a runtime not running.
import { expect } from 'chai'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Context } from 'koishi'
import { DELETED_DIR, registerStickers } from '../../src/koishi/console/stickers'
import { runtimeHome } from '../../src/runtime/runtime'
import { STATE_FILE } from '../../src/stickers/state-book'
import { Harness, call } from '../support/harness'
import { tinyPng } from '../support/tiny-png'
import { captureListeners } from '../support/console-listeners'
import { createHash } from 'node:crypto'
import { stickersPart } from '../../src/stickers/part'

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

describe('console: the sticker view', function () {
  this.timeout(15000)
  let h: Harness | undefined
  afterEach(async () => {
    await h?.stop()
    h = undefined
  })

  const BOT = 'mock:514'
  /** the listeners registerStickers adds, called as the page would (authority checked by the real console) */
  const listeners = (h: Harness) => captureListeners(h.app, registerStickers)
  const folder = (h: Harness) => join(runtimeHome(h.dataDir, 'neko', BOT), 'local', 'stickers')
  async function put(dir: string, name: string, colour: number, label?: object) {
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, `${name}.png`), tinyPng(colour))
    if (label) await writeFile(join(dir, `${name}.json`), JSON.stringify(label))
  }

  it('lists the library (waiting first), shows an image, approves, bans, edits a label and deletes (moved aside)', async () => {
    h = await Harness.start({ profile: { stickers: { enabled: true } } })
    const dir = folder(h)
    await put(dir, 'cat-happy', 2, { description: 'A cat grinning.', tags: ['happy', '开心'] })
    await put(dir, 'learned-0a1b2c3d', 3, { description: 'A frog.', tags: ['ok'] })
    const runtime = await h.app.kotodama.runtime(h.app.kotodama.profiles[0], BOT)
    await runtime.part(stickersPart)!.library.scan()
    const frog = runtime.part(stickersPart)!.library.named('learned-0a1b2c3d')!
    runtime.part(stickersPart)!.library.state.set(frog.sha256, { name: frog.name, state: 'waiting', source: { kind: 'learned', channel: 'group:555', user: 'u7', at: 1000 } })
    await runtime.part(stickersPart)!.library.idle()
    const { got, send } = listeners(h)
    expect([...got.values()].every(l => l.authority === 4)).to.equal(true)

    let view = await send('kotodama/stickers', 'neko', BOT)
    expect(view).to.deep.include({ enabled: true, dir, learn: { enabled: false, groups: [] } })
    expect(view.stickers.map((s: any) => [s.name, s.state])).to.deep.equal([['learned-0a1b2c3d', 'waiting'], ['cat-happy', 'approved']])
    expect(view.stickers[0]).to.deep.include({ description: 'A frog.', tags: ['ok'], uses: 0, source: { kind: 'learned', channel: 'group:555', user: 'u7', at: 1000 } })
    expect(view.stickers[1].source).to.deep.equal({ kind: 'owner' })
    expect(await send('kotodama/sticker-image', 'neko', BOT, 'cat-happy')).to.equal(`data:image/png;base64,${tinyPng(2).toString('base64')}`)
    expect(await send('kotodama/sticker-image', 'neko', BOT, '../../etc/passwd')).to.equal(null)

    // approve: the runtime's own library offers it at once
    expect(await send('kotodama/sticker-state', 'neko', BOT, 'learned-0a1b2c3d', 'approved')).to.equal(true)
    expect(runtime.part(stickersPart)!.library.byName('learned-0a1b2c3d')).to.include({ state: 'approved' })
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('alice').receive('hello')
    await h.server.waitForRequests(1)
    await h.settled()
    expect(JSON.stringify(h.server.requests[0].body)).to.contain('learned-0a1b2c3d — A frog.')
    // ban: neither offered nor sendable, and so on disk
    expect(await send('kotodama/sticker-state', 'neko', BOT, 'cat-happy', 'banned')).to.equal(true)
    expect(runtime.part(stickersPart)!.library.byName('cat-happy')).to.equal(undefined)
    expect(JSON.parse(await readFile(join(dir, STATE_FILE), 'utf8')).stickers[sha(tinyPng(2))]).to.include({ state: 'banned' })
    expect(await send('kotodama/sticker-state', 'neko', BOT, 'cat-happy', 'deleted')).to.equal(false)
    expect(await send('kotodama/sticker-state', 'neko', BOT, 'nobody', 'approved')).to.equal(false)

    // label edit: the label file written; tags as a comma list too
    expect(await send('kotodama/sticker-label', 'neko', BOT, 'learned-0a1b2c3d', { description: ' A green frog, thumbs up. ', tags: 'ok, 好的，thumbs up' })).to.equal(true)
    expect(JSON.parse(await readFile(join(dir, 'learned-0a1b2c3d.json'), 'utf8'))).to.deep.equal({ description: 'A green frog, thumbs up.', tags: ['ok', '好的', 'thumbs up'] })
    expect(runtime.part(stickersPart)!.library.named('learned-0a1b2c3d')).to.include({ description: 'A green frog, thumbs up.' })
    expect(await send('kotodama/sticker-label', 'neko', BOT, 'learned-0a1b2c3d', { description: 42 })).to.equal(false)
    expect(await send('kotodama/sticker-label', 'neko', BOT, 'learned-0a1b2c3d', null)).to.equal(false)

    // delete: the files go into .deleted/, the record goes
    expect(await send('kotodama/sticker-delete', 'neko', BOT, 'cat-happy')).to.equal(true)
    expect(existsSync(join(dir, 'cat-happy.png'))).to.equal(false)
    const aside = await readdir(join(dir, DELETED_DIR))
    expect(aside.some(f => f.endsWith('-cat-happy.png')) && aside.some(f => f.endsWith('-cat-happy.json'))).to.equal(true)
    expect(JSON.parse(await readFile(join(dir, STATE_FILE), 'utf8')).stickers).to.not.have.property(sha(tinyPng(2)))
    view = await send('kotodama/stickers', 'neko', BOT)
    expect(view.stickers.map((s: any) => s.name)).to.deep.equal(['learned-0a1b2c3d'])
    expect(await send('kotodama/sticker-delete', 'neko', BOT, 'cat-happy')).to.equal(false)
  })

  it('a profile without stickers says so; a runtime not running has its library opened for the request', async () => {
    h = await Harness.start()
    let { send } = listeners(h)
    await h.app.kotodama.runtime(h.app.kotodama.profiles[0], BOT)
    expect(await send('kotodama/stickers', 'neko', BOT)).to.deep.equal({ enabled: false, stickers: [] })
    expect(await send('kotodama/sticker-state', 'neko', BOT, 'x', 'approved')).to.equal(false)
    await h.stop()
    h = await Harness.start({ profile: { stickers: { enabled: true } } })
    ;({ send } = listeners(h))
    await put(folder(h), 'dog', 5)
    // no message yet: no runtime runs
    expect(await h.app.kotodama.list()).to.have.length(0)
    expect((await send('kotodama/stickers', 'neko', BOT)).stickers.map((s: any) => [s.name, s.state])).to.deep.equal([['dog', 'approved']])
    expect(await send('kotodama/sticker-state', 'neko', BOT, 'dog', 'banned')).to.equal(true)
    expect((await send('kotodama/stickers', 'neko', BOT)).stickers[0].state).to.equal('banned')
    expect(await h.app.kotodama.list()).to.have.length(0)
  })
})
