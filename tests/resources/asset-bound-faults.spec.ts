// SPEC §22 with SPEC §10's full disk: the bounded asset store's index (`kept.json`) cannot be
// written, and a new asset cannot be stored. No stored asset is lost, and a start on the same
// folder counts them all again. The disk is a real tmpfs (mounting needs root; skipped otherwise).
import { expect } from 'chai'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { format } from 'node:util'
import { ResourceCenter } from '../../src/resources/center'
import { AssetStore, type Fetcher } from '../../src/resources/schemes/asset-store'
import { assetScheme } from '../../src/resources/schemes/asset'
import { KEPT_FILE } from '../../src/resources/schemes/asset-quota'
import { httpGet } from '../../src/resources/schemes/http-fetch'
import { MediaServer } from '../support/media-server'
import { fill, mountTmpfs, unmount } from '../support/faults'

const fetcher: Fetcher = async (url, o) => {
  const r = await httpGet(url, { allowPrivate: true, ...o })
  return { data: r.data, mediaType: r.mediaType }
}
const SIZE = 20_000
const DIRECT = { whole: false, maxBytes: 1 << 20 }

describe('faults: the bounded asset store on a full disk', function () {
  let dir: string | undefined
  let media: MediaServer
  const warnings: string[] = []
  const logger = { debug() {}, info() {}, warn: (...a: unknown[]) => { warnings.push(format(...a)) }, error() {} }
  beforeEach(async () => {
    media = await MediaServer.start()
    warnings.length = 0
  })
  afterEach(async () => {
    await media.close()
    await unmount(dir)
    dir = undefined
  })

  function open(at: string) {
    const store = new AssetStore(at, fetcher)
    store.logger = logger as any
    store.bound({ maxBytes: 100_000, keepDays: 30 })
    const center = new ResourceCenter()
    center.register(assetScheme(store))
    return { store, center }
  }

  async function arrive(store: AssetStore, name: string): Promise<string> {
    media.put(`/${name}`, Buffer.alloc(SIZE, name.charCodeAt(0)), 'application/octet-stream')
    const id = await store.register(`${media.base}/${name}`, {}, { fetchNow: true })
    await store.idle()
    return id
  }

  it('a failed index write and a refused new asset lose no stored asset; a restart counts them all', async function () {
    dir = await mountTmpfs(this, '256k')
    const at = join(dir!, 'assets')
    const { store, center } = open(at)
    const ids = [await arrive(store, 'a.bin'), await arrive(store, 'b.bin')]
    // c's sidecar is written before the disk fills; its bytes come after
    media.put('/c.bin', Buffer.alloc(SIZE, 'c'.charCodeAt(0)), 'application/octet-stream')
    const c = await store.register(`${media.base}/c.bin`)
    await store.quota!.flushed()
    const before = await readFile(join(at, KEPT_FILE), 'utf8')

    const filler = await fill(dir!, 0)
    // a read marks the asset shown: the index is written, and the disk refuses
    expect((await center.read(`asset://${ids[0]}`, DIRECT)).kind).to.equal('file')
    await store.quota!.flushed()
    expect(warnings.join('\n')).to.match(/kept\.json not written \(ENOSPC\)/)
    expect(await readFile(join(at, KEPT_FILE), 'utf8'), 'the old index stays whole').to.equal(before)
    // a new asset cannot be written: refused, counted nowhere, the others untouched
    store.fetchSoon(c)
    await store.idle()
    expect(await store.fetched(c)).to.equal(false)
    expect(await store.quota!.used()).to.deep.equal({ bytes: 2 * SIZE, limit: 100_000 })
    for (const [i, id] of ids.entries()) {
      const r = await center.read(`asset://${id}`, DIRECT)
      expect(r.kind === 'file' && Buffer.from(r.data, 'base64').equals(Buffer.alloc(SIZE, 'ab'.charCodeAt(i))), id).to.equal(true)
    }
    center.dispose()

    await rm(filler)
    const again = open(at)
    expect(await again.store.quota!.used(), 'a start counts what the index holds').to.deep.equal({ bytes: 2 * SIZE, limit: 100_000 })
    for (const id of ids) expect((await again.center.read(`asset://${id}`, DIRECT)).kind).to.equal('file')
    again.center.dispose()
  })

  it('bytes the runtime made (a drawn picture) on a full disk: write_failed without the folder\'s path, no file of it left, the rest kept', async function () {
    dir = await mountTmpfs(this, '256k')
    const at = join(dir!, 'assets')
    const { store, center } = open(at)
    const kept = await store.keep(Buffer.alloc(SIZE, 'k'.charCodeAt(0)), { mediaType: 'image/png' }, { owner: 'private:alice', made: 'picture' })
    const files = await readdir(at)
    const filler = await fill(dir!, 0)
    const err = await store.keep(Buffer.alloc(SIZE, 'n'.charCodeAt(0)), { mediaType: 'image/png' }, { owner: 'private:alice', made: 'picture' }).catch(e => e)
    expect(err).to.include({ code: 'write_failed' })
    expect(err.message).to.match(/^the picture: cannot be written \(ENOSPC\)/)
    expect(err.message).to.not.include(dir!)
    await rm(filler)
    expect((await readdir(at)).filter(f => !f.endsWith('.tmp') && f !== KEPT_FILE).sort(), 'no file of the refused one').to.deep.equal(files.filter(f => f !== KEPT_FILE).sort())
    expect(await store.quota!.used()).to.deep.equal({ bytes: SIZE, limit: 100_000 })
    const r = await center.read(`asset://${kept}`, DIRECT)
    expect(r.kind === 'file' && Buffer.from(r.data, 'base64').equals(Buffer.alloc(SIZE, 'k'.charCodeAt(0)))).to.equal(true)
    center.dispose()
  })

  it('bytes the runtime made past attachment.maxAssetBytes: not_kept, naming no asset, and nothing of them stays', async () => {
    const at = join(await mkdtemp(join(tmpdir(), 'kotodama-made-')), 'assets')
    const { store, center } = open(at)
    try {
      const err = await store.keep(Buffer.alloc(200_000, 1), { mediaType: 'image/png' }, { made: 'picture' }).catch(e => e)
      expect(err).to.include({ code: 'not_kept' })
      expect(err.message).to.not.include('asset://')
      expect((await readdir(at).catch((): string[] => [])).filter(f => f !== KEPT_FILE)).to.deep.equal([])
      expect(await store.quota!.used()).to.deep.equal({ bytes: 0, limit: 100_000 })
    } finally {
      center.dispose()
      await rm(dirname(at), { recursive: true, force: true })
    }
  })
})
