// SPEC §22 "Nothing the owner keeps is lost": inbound media are bounded per runtime home
// (attachment.maxAssetBytes); past it the oldest not shown in attachment.keepDays days are evicted,
// a later read says so, and media that would not fit are not fetched (their line says so).
// Through the real OneBot adapter and the fake NapCat; files from a media host on 127.0.0.1.
import { expect } from 'chai'
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runtimeSummary } from '../../src/console-data/summary'
import { runtimeHome } from '../../src/runtime/runtime'
import { UUIDV7 } from '../../src/util/uuidv7'
import { seg } from '../support/fakes/onebot'
import { OneBotHarness } from '../support/onebot-harness'
import { toolResultsOf } from '../support/fake-openai'
import { call } from '../support/harness'
import { MediaServer } from '../support/media-server'

const LIMIT = 10_000
const SIZE = 3_000
const profile = { attachment: { maxAssetBytes: LIMIT, keepDays: 30 } }

describe('assets: bounded per runtime home (SPEC §22)', function () {
  let h: OneBotHarness | undefined
  let media: MediaServer
  let dataDir: string
  beforeEach(async () => {
    media = await MediaServer.start()
    dataDir = await mkdtemp(join(tmpdir(), 'kotodama-bound-'))
  })
  afterEach(async () => {
    await h?.stop()
    h = undefined
    await media.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  const runtime = async () => (await h!.app.kotodama.list())[0]
  const assetsDir = () => join(runtimeHome(dataDir, 'neko', 'onebot:10001'), 'assets')

  /** Bytes of asset files on disk (sidecars and the index left out). */
  async function onDisk(): Promise<number> {
    let n = 0
    for (const name of await readdir(assetsDir())) if (UUIDV7.test(name)) n += (await stat(join(assetsDir(), name))).size
    return n
  }

  /** Posts a file without a mention (nothing wakes) and returns the line the model reads for it, once fetched. */
  async function post(name: string, bytes: number, said = String(bytes), group = 555): Promise<string> {
    media.put(`/${name}`, Buffer.alloc(bytes, name.charCodeAt(0)), 'application/octet-stream')
    const url = `${media.base}/${name}?rkey=R`
    await h!.napcat.groupMessage({ group, user: 2001, nickname: 'Alice', segments: [seg.file({ file: name, file_size: said, url })] })
    let line: string | undefined
    await h!.until(async () => {
      const rt = await runtime()
      if (!rt) return false
      const facts = (await rt.loaded()).flatMap(c => c.entries).filter(e => e.type === 'fact').map(e => (e as any).fact.content as string)
      line = facts.find(f => f.includes(`file: ${name}`))
      return !!line
    }, `the fact of ${name}`)
    const rt = await runtime()
    await rt.assets.idle()
    await rt.assets.quota!.flushed()
    return line!
  }
  const idOf = (line: string) => /asset:\/\/([0-9a-f-]{36})/.exec(line)![1]
  const read = async (id: string) => (await runtime()).resources.read(`asset://${id}`, { whole: false, maxBytes: 1 << 20 })

  it('keeps the total under maxAssetBytes: the oldest unshown go first, a shown one stays, reads say evicted, too big is not fetched', async () => {
    h = await OneBotHarness.start({ dataDir, profile })
    const a = idOf(await post('a.bin', SIZE))
    const b = idOf(await post('b.bin', SIZE))
    const c = idOf(await post('c.bin', SIZE))
    expect(await onDisk()).to.equal(3 * SIZE)

    // the mind reads b: shown, so kept for keepDays
    h.server.script({ toolCalls: [call('read', { url: `asset://${b}?view=meta` }), call('read', { url: `asset://${b}` })] }, { toolCalls: [call('finish', {})] })
    await h.napcat.groupMessage({ group: 555, user: 2001, nickname: 'Alice', segments: [seg.at(10001), seg.text(' what is in b?')] })
    await h.server.waitForRequests(2)
    await h.settled()
    expect(toolResultsOf(h.server.requests[1]).map(r => r.content).join('\n')).to.include(`${SIZE} bytes`)

    const d = idOf(await post('d.bin', SIZE))
    const e = idOf(await post('e.bin', SIZE))
    expect(await onDisk()).to.equal(3 * SIZE).and.to.be.at.most(LIMIT)
    const rt = await runtime()
    expect(await rt.assets.quota!.used()).to.deep.equal({ bytes: 3 * SIZE, limit: LIMIT })
    for (const gone of [a, c]) {
      const r = await read(gone)
      expect(r.kind === 'error' && r.error.code, gone).to.equal('evicted')
      expect(r.kind === 'error' && r.error.message).to.match(/was evicted on \d{4}-\d\d-\d\d: the bot's media store was full/)
    }
    for (const kept of [b, d, e]) expect((await read(kept)).kind, kept).to.equal('file')

    // a file the store could never hold: its line says so, and the platform is never asked for it
    const big = await post('big.bin', LIMIT + 1)
    expect(big).to.equal(`[file: big.bin, 9.8 KB; not kept: the bot's media store is full]`)
    expect(media.fetches.get('/big.bin') ?? 0).to.equal(0)
    expect(await onDisk()).to.equal(3 * SIZE)

    // a size the platform did not tell truly: fetched, then refused; a read says not kept
    const liar = idOf(await post('liar.bin', LIMIT + 1, '10'))
    const r = await read(liar)
    expect(r.kind === 'error' && r.error.code, JSON.stringify(r)).to.equal('not_kept')
    expect(await onDisk()).to.be.at.most(LIMIT)

    // the console's runtime card shows the disk use
    expect((await runtimeSummary(rt, true)).assets).to.deep.equal({ bytes: await onDisk(), limit: LIMIT })
  })

  it('a restart keeps the index: what was shown before it is still kept, nothing stored is lost', async () => {
    h = await OneBotHarness.start({ dataDir, profile })
    const a = idOf(await post('a.bin', SIZE))
    const b = idOf(await post('b.bin', SIZE))
    expect((await read(a)).kind).to.equal('file')   // shown
    await (await runtime()).assets.quota!.flushed()
    await h.stop()
    h = await OneBotHarness.start({ dataDir, profile })
    // another group: the new fake NapCat numbers its messages from the start again
    const c = idOf(await post('c.bin', SIZE, String(SIZE), 556))
    // counted from the index once at start: a and b, then c
    expect(await (await runtime()).assets.quota!.used()).to.deep.equal({ bytes: 3 * SIZE, limit: LIMIT })
    const d = idOf(await post('d.bin', SIZE, String(SIZE), 556))
    // d needed room: b (older, never shown) went, a (shown before the restart) stayed
    expect((await read(b)).kind).to.equal('error')
    for (const kept of [a, c, d]) expect((await read(kept)).kind, kept).to.equal('file')
    expect(await onDisk()).to.equal(3 * SIZE)
  })
})
