import { expect } from 'chai'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Harness, call } from '../support/harness'
import { imagePartsOf, lastUserText, messagesOf, toolResultsOf } from '../support/fake-openai'
import { runtimeHome, type Runtime } from '../../src/runtime/runtime'
import { localScheme } from '../../src/resources/schemes/local'
import { workspaceScheme } from '../../src/resources/schemes/workspace'
import { hostPathOf, locateInRoots, workspaceUrlOf } from '../../src/resources/schemes/workspace-path'
import { isPublicAddress } from '../../src/resources/schemes/http-fetch'
import type { ReadResult } from '../../src/resources/types'
import { ResourceError } from '../../src/resources/errors'
import { fsError } from '../../src/resources/fs-error'
import { isTextualType, mediaTypeOfName, sniffMediaType } from '../../src/resources/media-type'
import { ResourceCenter } from '../../src/resources/center'
import { AssetStore } from '../../src/resources/schemes/asset-store'
import { assetScheme } from '../../src/resources/schemes/asset'
import { tinyPng } from '../support/tiny-png'
import { MediaServer } from '../support/media-server'

const PNG = tinyPng(0, 1, 1)
const DIRECT = { whole: false, maxBytes: 1 << 25 }
const code = (r: ReadResult) => r.kind === 'error' ? r.error.code : r.kind

describe('resources: escapes are refused', function () {
  let dir: string
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-roots-'))
    await mkdir(join(dir, 'root', 'sub'), { recursive: true })
    await mkdir(join(dir, 'outside'), { recursive: true })
    await writeFile(join(dir, 'root', 'sub', 'ok.txt'), 'fine\n')
    await writeFile(join(dir, 'outside', 'secret.txt'), 'secret\n')
    await symlink(join(dir, 'outside'), join(dir, 'root', 'escape'))
    await symlink(join(dir, 'outside', 'secret.txt'), join(dir, 'root', 'secret-link.txt'))
    await symlink(join(dir, 'root', 'sub', 'ok.txt'), join(dir, 'root', 'inside-link.txt'))
  })
  after(() => rm(dir, { recursive: true, force: true }))

  const attempts = [
    'local://../outside/secret.txt', 'local://sub/../../outside/secret.txt', 'local://%2E%2E/outside/secret.txt',
    'local://sub/%2e%2e/%2e%2e/outside/secret.txt', 'local://..%2Foutside%2Fsecret.txt', 'local://sub%5C..%5C..%5Csecret.txt',
    'local://escape/secret.txt', 'local://secret-link.txt', 'local://sub/ok.txt%00.png', 'local:///etc/passwd',
  ]
  for (const url of attempts) {
    it(`local: ${url}`, async () => {
      const r = await localScheme(join(dir, 'root')).read(url, DIRECT).catch((e: any) => ({ kind: 'error', error: { code: e.code } }) as ReadResult)
      expect(['forbidden', 'invalid_url', 'not_found']).to.include(code(r))
      expect(JSON.stringify(r)).to.not.include('secret\\n')
    })
  }

  it('local and workspace: names that start with two dots are ordinary names', async () => {
    await writeFile(join(dir, 'root', '..notes.txt'), 'dots\n')
    await mkdir(join(dir, 'root', 'a'), { recursive: true })
    await writeFile(join(dir, 'root', 'a', '..b'), 'inner\n')
    const local = localScheme(join(dir, 'root'))
    expect(await local.read('local://..notes.txt', DIRECT)).to.deep.include({ kind: 'text', text: 'dots\n' })
    expect(await local.read('local://a/..b', DIRECT)).to.deep.include({ kind: 'text', text: 'inner\n' })
    expect((await local.bytes('local://..notes.txt')).data.toString()).to.equal('dots\n')
    const ws = workspaceScheme([join(dir, 'root')], 'posix')
    const url = (p: string) => workspaceUrlOf(p, 'posix')
    expect(await ws.read(url(join(dir, 'root', '..notes.txt')), DIRECT)).to.deep.include({ kind: 'text', text: 'dots\n' })
    expect(await ws.read(url(join(dir, 'root', 'a', '..b')), DIRECT)).to.deep.include({ kind: 'text', text: 'inner\n' })
    expect(locateInRoots('/srv/share/..notes.txt', ['/srv/share'], 'posix')).to.deep.equal({ root: '/srv/share', rest: ['..notes.txt'] })
    expect(locateInRoots('D:\\work\\..notes.txt', ['D:\\work'], 'win32')).to.deep.equal({ root: 'D:\\work', rest: ['..notes.txt'] })
  })

  it('local: a symlink that stays inside the root is fine', async () => {
    const r = await localScheme(join(dir, 'root')).read('local://inside-link.txt', DIRECT)
    expect(r).to.deep.include({ kind: 'text', text: 'fine\n' })
  })

  it('local: a root named through a link or with a trailing slash reads the same and refuses the same', async () => {
    await symlink(join(dir, 'root'), join(dir, 'root-link'))
    for (const root of [join(dir, 'root-link'), join(dir, 'root') + '/']) {
      const local = localScheme(root)
      expect(await local.read('local://sub/ok.txt', DIRECT)).to.deep.include({ kind: 'text', text: 'fine\n' })
      expect(await local.read('local://inside-link.txt', DIRECT)).to.deep.include({ kind: 'text', text: 'fine\n' })
      const escape = await local.read('local://escape/secret.txt', DIRECT).catch((e: any) => ({ kind: 'error', error: { code: e.code } }) as ReadResult)
      expect(code(escape)).to.equal('forbidden')
    }
  })

  it('workspace: only under a root, absolute URLs only, symlinks out refused', async () => {
    const ws = workspaceScheme([join(dir, 'root')], 'posix')
    const url = (p: string) => workspaceUrlOf(p, 'posix')
    expect(await ws.read(url(join(dir, 'root', 'sub', 'ok.txt')), DIRECT)).to.deep.include({ kind: 'text', text: 'fine\n' })
    const refused = [
      url(join(dir, 'outside', 'secret.txt')), url(join(dir, 'root', 'escape', 'secret.txt')), url(join(dir, 'root', 'secret-link.txt')),
      url(join(dir, 'root')) + '/../outside/secret.txt', url(join(dir, 'root')) + '/%2E%2E/outside/secret.txt',
      'workspace://' + join(dir, 'root', 'sub', 'ok.txt').slice(1), 'workspace:///etc/passwd',
    ]
    for (const u of refused) {
      const r = await ws.read(u, DIRECT).catch((e: any) => ({ kind: 'error', error: { code: e.code } }) as ReadResult)
      expect(['forbidden', 'invalid_url'], u).to.include(code(r))
    }
    const none = await workspaceScheme([], 'posix').read(url(join(dir, 'root', 'sub', 'ok.txt')), DIRECT).catch((e: any) => e.code)
    expect(none).to.equal('forbidden')
  })

  it('workspace path mapping, POSIX and Windows (pure)', () => {
    expect(hostPathOf(['srv', 'share', 'report.txt'], 'posix')).to.equal('/srv/share/report.txt')
    expect(hostPathOf(['d', 'work', 'report.txt'], 'win32')).to.equal('D:\\work\\report.txt')
    expect(hostPathOf(['d:', 'work', 'report.txt'], 'win32')).to.equal('D:\\work\\report.txt')
    expect(() => hostPathOf(['work', 'report.txt'], 'win32')).to.throw(/drive letter/)
    expect(() => hostPathOf(['dd:', 'x'], 'win32')).to.throw(/drive letter/)
    expect(locateInRoots('D:\\work\\a\\b.txt', ['d:\\Work'], 'win32')).to.deep.equal({ root: 'd:\\Work', rest: ['a', 'b.txt'] })
    expect(locateInRoots('D:\\workshop\\b.txt', ['D:\\work'], 'win32')).to.equal(undefined)
    expect(locateInRoots('E:\\work\\b.txt', ['D:\\work'], 'win32')).to.equal(undefined)
    expect(locateInRoots('D:\\work\\..\\secret.txt', ['D:\\work'], 'win32')).to.equal(undefined)
    expect(locateInRoots('/srv/share/x', ['/srv/share'], 'posix')).to.deep.equal({ root: '/srv/share', rest: ['x'] })
    expect(locateInRoots('/srv/shared/x', ['/srv/share'], 'posix')).to.equal(undefined)
    expect(workspaceUrlOf('D:\\work\\a b.txt', 'win32')).to.equal('workspace:///d/work/a%20b.txt')
    expect(workspaceUrlOf('/srv/a:b.txt', 'posix')).to.equal('workspace:///srv/a%3Ab.txt')
  })

  it('classifies addresses for http', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '192.168.1.1', '172.16.0.1', '169.254.169.254', '::1', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '0.0.0.0', '100.64.0.1']) {
      expect(isPublicAddress(a), a).to.equal(false)
    }
    expect(isPublicAddress('93.184.216.34')).to.equal(true)
    expect(isPublicAddress('2606:4700::1111')).to.equal(true)
  })
})

describe('resources through a running runtime', function () {
  let h: Harness
  afterEach(async () => { await h?.stop() })

  async function runtime(): Promise<Runtime> {
    await h.app.kotodama.wake({ bot: 'mock:514', channel: 'private:bob', reason: 'setup' }).catch(() => {})
    h.server.fallback({ toolCalls: [call('finish', {})] })
    await h.settled()
    return (await h.app.kotodama.list())[0]
  }

  it('an asset is fetched once through Koishi HTTP (at arrival) under 20 concurrent reads; meta never fetches', async () => {
    h = await Harness.start()
    h.server.fallback({ toolCalls: [call('finish', {})] })
    const server = await MediaServer.start(({ url }, res) => {
      if (url === '/big.png') { res.setHeader('content-type', 'image/png'); res.end(Buffer.alloc(5000)); return }
      if (url === '/slow.png') { setTimeout(() => res.end(PNG), 2000); return }
      setTimeout(() => { res.setHeader('content-type', 'image/png'); res.end(PNG) }, 50)
    })
    try {
      await h.client('bob').receive(`look <img src="${server.base}/dot.png"/>`)
      await h.server.waitForRequests(1)
      const ids = [...lastUserText(h.server.requests[0]).matchAll(/asset:\/\/([0-9a-f-]{36})/g)].map(m => m[1])
      expect(ids).to.have.length(1)
      const rt = (await h.app.kotodama.list())[0]
      // the 20 reads share the fetch that started when the message arrived (SPEC §19), or find its bytes kept
      const reads = await Promise.all(Array.from({ length: 20 }, () => rt.resources.read(`asset://${ids[0]}`, DIRECT)))
      expect(reads[0], JSON.stringify(reads[0])).to.deep.include({ kind: 'file' })
      expect(server.hits.get('/dot.png')).to.equal(1)
      expect(reads.every(r => r.kind === 'file' && r.data === PNG.toString('base64') && r.width === 1)).to.equal(true)
      expect(await rt.resources.read(`asset://${ids[0]}`, DIRECT)).to.deep.include({ kind: 'file' })
      expect(server.hits.get('/dot.png')).to.equal(1)
      // media registered otherwise are fetched on first use: meta does not fetch them
      const [lazy, big, slow] = await Promise.all(['/lazy.png', '/big.png', '/slow.png'].map(p => rt.assets.register(server.base + p)))
      const meta = await rt.resources.read(`asset://${lazy}?view=meta`, DIRECT)
      expect(meta).to.deep.include({ kind: 'meta' })
      expect((meta as any).meta.fetched).to.equal(false)
      expect(server.hits.get('/lazy.png') ?? 0).to.equal(0)
      rt.assets.maxBytes = 1000
      expect(code(await rt.resources.read(`asset://${big}`, DIRECT))).to.equal('too_large')
      rt.assets.timeoutMs = 200
      const timedOut = await rt.resources.read(`asset://${slow}`, DIRECT)
      expect(code(timedOut)).to.equal('read_failed')
      expect((timedOut as any).error.message).to.match(/its media could not be fetched/)
    } finally {
      await server.close()
    }
  })

  it('without Koishi\'s http plugin an asset is fetched with plain fetch, with the same cap', async () => {
    // plain fetch follows http.allowPrivate (tests/resources/inbound-media-faults.spec.ts); this server is on loopback
    h = await Harness.start({ http: false, profile: { http: { enabled: false, allowPrivate: true } } })
    h.server.fallback({ toolCalls: [call('finish', {})] })
    const server = await MediaServer.start(({ url }, res) => { res.setHeader('content-type', 'image/png'); res.end(url === '/big.png' ? Buffer.alloc(5000) : PNG) })
    try {
      // the cap is set before the media arrive: their fetch starts at arrival
      await h.client('bob').receive('hi')
      await h.server.waitForRequests(1)
      const rt = (await h.app.kotodama.list())[0]
      rt.assets.maxBytes = 1000
      await h.client('bob').receive(`<img src="${server.base}/dot.png"/><img src="${server.base}/big.png"/>`)
      await h.server.waitForRequests(2)
      const ids = [...lastUserText(h.server.requests[1]).matchAll(/asset:\/\/([0-9a-f-]{36})/g)].map(m => m[1])
      expect(await rt.resources.read(`asset://${ids[0]}`, DIRECT)).to.deep.include({ kind: 'file', data: PNG.toString('base64') })
      expect(code(await rt.resources.read(`asset://${ids[1]}`, DIRECT))).to.equal('too_large')
    } finally {
      await server.close()
    }
  })

  it('http(s) refuses 127.0.0.1 by default and allows it with allowPrivate', async () => {
    const server = await MediaServer.start(({ url }, res) => {
      if (url === '/hop') { res.statusCode = 302; res.setHeader('location', '/page'); res.end(); return }
      res.setHeader('content-type', 'text/plain; charset=utf-8'); res.end('hello from the web\n')
    })
    try {
      h = await Harness.start({ profile: { http: { enabled: true } } })
      let rt = await runtime()
      const refused = await rt.resources.read(`${server.base}/page`, DIRECT)
      expect(code(refused)).to.equal('forbidden')
      // a host name is checked on the address it resolves to, where the connection is made
      const byName = await rt.resources.read(server.base.replace('127.0.0.1', 'localhost') + '/page', DIRECT)
      expect(code(byName)).to.equal('forbidden')
      expect((byName as any).error.message).to.match(/resolves to (127\.0\.0\.1|::1)/)
      await h.stop()
      h = await Harness.start({ profile: { http: { enabled: true, allowPrivate: true } } })
      rt = await runtime()
      expect(await rt.resources.read(`${server.base}/hop`, DIRECT)).to.deep.include({ kind: 'text', text: 'hello from the web\n' })
      await h.stop()
      h = await Harness.start()
      rt = await runtime()
      const off = await rt.resources.read(`${server.base}/page`, DIRECT)
      expect(code(off)).to.equal('unknown_scheme')
    } finally {
      await server.close()
    }
  })

  it('a web page reads as Markdown', async () => {
    const server = await MediaServer.start((_, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8')
      res.end('<html><head><style>p{}</style><script>alert(1)</script></head><body><h1>Kotodama</h1><p>See <a href="/docs">the docs</a>.</p></body></html>')
    })
    try {
      h = await Harness.start({ profile: { http: { enabled: true, allowPrivate: true } } })
      const rt = await runtime()
      const r = await rt.resources.read(`${server.base}/`, DIRECT) as any
      expect(r).to.deep.include({ kind: 'text', mediaType: 'text/markdown' })
      expect(r.text).to.equal('# Kotodama\n\nSee [the docs](/docs).')
    } finally {
      await server.close()
    }
  })

  it('a long web text is archived and paged from the artifact', async () => {
    const body = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n'
    const server = await MediaServer.start((_, res) => { res.setHeader('content-type', 'text/plain'); res.end(body) })
    try {
      h = await Harness.start({ profile: { http: { enabled: true, allowPrivate: true } } })
      const rt = await runtime()
      const first = await rt.resources.read(`${server.base}/long.txt`, DIRECT) as any
      expect(first.kind).to.equal('text')
      expect(first.url).to.match(/^artifact:\/\/read\/[0-9a-f]{20}\.txt$/)
      expect(first.continueUrl).to.match(/^artifact:\/\/read\/[0-9a-f]{20}\.txt\?offset=\d+$/)
      let text = first.text
      let next = first.continueUrl
      while (next) {
        const page = await rt.resources.read(next, DIRECT) as any
        text += page.text
        next = page.continueUrl
      }
      expect(text).to.equal(body)
    } finally {
      await server.close()
    }
  })

  it('read is used end to end: a 5,000-line local file paged to the end', async () => {
    h = await Harness.start()
    const local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
    await mkdir(local, { recursive: true })
    const lines = Array.from({ length: 5000 }, (_, i) => `${i + 1}: ${'word '.repeat(i % 7)}`)
    await writeFile(join(local, 'big.log'), lines.join('\n') + '\n')
    const reads: string[] = []
    h.server.script({ toolCalls: [call('read', { url: 'local://big.log' })] })
    h.server.fallback(req => {
      const last = toolResultsOf(req).at(-1).content
      const m = /\[truncated.*read\(\{url: "([^"]+)"\}\)\]$/.exec(last)
      reads.push(last)
      return m ? { toolCalls: [call('read', { url: m[1] })] } : { toolCalls: [call('finish', {})] }
    })
    await h.client('bob').receive('read your log')
    await h.settled(15000)
    // the body's length is the step between Continue offsets (a newline before the note may or may not belong to it)
    let offset = 0
    const bodies = reads.map(r => {
      const m = /\[truncated.*offset=(\d+)"\}\)\]$/.exec(r)
      if (!m) return r
      const body = r.slice(0, Number(m[1]) - offset)
      offset = Number(m[1])
      return body
    })
    expect(bodies.join('')).to.equal(lines.join('\n') + '\n')
    expect(reads.length).to.be.greaterThan(2)
    for (const r of reads) {
      expect(r.length).to.be.at.most(30000)
      expect(r.split('\n').length).to.be.at.most(2000)
    }
  })

  it('a vision question goes to the vision model with the image; the main model sees only the answer', async () => {
    h = await Harness.start({ profile: { attachment: { visionModel: 'main' } } })
    const local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
    await mkdir(local, { recursive: true })
    await writeFile(join(local, 'dot.png'), PNG)
    await writeFile(join(local, 'note.txt'), 'not an image')
    h.server.script(
      { toolCalls: [call('read', { url: 'local://dot.png?question=what color is it?' })] },
      req => { expect(imagePartsOf(req)).to.deep.equal([`data:image/png;base64,${PNG.toString('base64')}`]); return { content: 'a single dark pixel' } },
      { toolCalls: [call('read', { url: 'local://dot.png?question=' }), call('read', { url: 'local://note.txt?question=what%20is%20this' })] },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('bob').receive('what is in dot.png?')
    await h.server.waitForRequests(4)
    await h.settled()
    expect(lastUserText(h.server.requests[1])).to.equal('what color is it?')
    const answer = toolResultsOf(h.server.requests[2]).at(-1).content
    expect(answer).to.equal('a single dark pixel')
    expect(imagePartsOf(h.server.requests[2])).to.deep.equal([])
    const errs = toolResultsOf(h.server.requests[3]).slice(-2).map(r => r.content)
    expect(errs[0]).to.match(/^empty_question:/)
    expect(errs[1]).to.match(/^not_an_image:/)
  })

  it('without a vision model a question is vision_unavailable; a bad lifetime is refused', async () => {
    h = await Harness.start({ profile: { attachment: { imageInput: true } } })
    h.server.script(
      { toolCalls: [call('read', { url: 'local://x.png?question=hi' }), call('read', { url: 'local://', lifetime: 'forever' })] },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('bob').receive('look')
    await h.server.waitForRequests(2)
    const [a, b] = toolResultsOf(h.server.requests[1]).map(r => r.content)
    expect(a).to.match(/^vision_unavailable:/)
    expect(b).to.match(/^invalid_attachment_lifetime:/)
  })

  it('read: meta, folder listing, binary as a file, and the error codes a model can meet', async () => {
    h = await Harness.start()
    const rt = await runtime()
    const local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
    await mkdir(join(local, 'sub'), { recursive: true })
    await writeFile(join(local, 'dot.png'), PNG)
    await writeFile(join(local, 'a:b.txt'), 'colon\n')
    await writeFile(join(local, 'notes.txt'), 'one\ntwo\nthree\n')
    const meta = await rt.resources.read('local://dot.png?view=meta', DIRECT) as any
    expect(meta.meta).to.deep.include({ scheme: 'local', mediaType: 'image/png', byteLength: PNG.length, width: 1, height: 1, filename: 'dot.png' })
    const listing = await rt.resources.read('local://', DIRECT) as any
    expect(listing.text).to.equal(`a%3Ab.txt\t6 bytes\ndot.png\t${PNG.length} bytes\nnotes.txt\t14 bytes\nsub/\n`)
    expect(await rt.resources.read('local://a%3Ab.txt', DIRECT)).to.deep.include({ kind: 'text', text: 'colon\n' })
    // every name of a listing is written as in a URL: the folder's URL + the name reads it
    const odd = ['100%.md', 'q?.md', 'new\nline.md', 'tab\t.md', 'sp ace#&+.md']
    await mkdir(join(local, 'odd'))
    for (const n of odd) await writeFile(join(local, 'odd', n), `in ${n}`)
    const names = ((await rt.resources.read('local://odd/', DIRECT)) as any).text.trim().split('\n').map((l: string) => l.split('\t')[0])
    expect(names).to.have.members(['100%25.md', 'q%3F.md', 'new%0Aline.md', 'tab%09.md', 'sp ace#&+.md'])
    for (const n of names) expect(await rt.resources.read(`local://odd/${n}`, DIRECT)).to.deep.include({ kind: 'text', text: `in ${decodeURIComponent(n)}` })
    expect(await rt.resources.read('local://notes.txt:2', DIRECT)).to.deep.include({ kind: 'text', text: 'two\nthree\n' })
    const file = await rt.resources.read('local://dot.png', DIRECT) as any
    expect(file).to.deep.include({ kind: 'file', mediaType: 'image/png', data: PNG.toString('base64'), byteLength: PNG.length, width: 1, height: 1 })
    const errors = await Promise.all([
      'local://dot.png:1-2', 'local://notes.txt?view=original', 'local://notes.txt?view=raw', 'local://notes.txt:0',
      'local://nothing.txt', 'nope://x', 'local://../x', 'local://notes.txt?color=red',
    ].map(u => rt.resources.read(u, DIRECT).then(code)))
    expect(errors).to.deep.equal(['not_text', 'unsupported_view', 'unsupported_view', 'invalid_selector', 'not_found', 'unknown_scheme', 'invalid_url', 'invalid_url'])
  })

  it('a failing vision model is vision_failed; answers are cached per image and question', async () => {
    h = await Harness.start({ profile: { attachment: { visionModel: 'main' } } })
    const local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
    await mkdir(local, { recursive: true })
    await writeFile(join(local, 'dot.png'), PNG)
    await writeFile(join(local, 'copy.png'), PNG)
    h.server.script(
      { toolCalls: [call('read', { url: 'local://dot.png?question=broken?' })] },
      { status: 500, error: 'vision backend down' },
      { toolCalls: [call('read', { url: 'local://dot.png?question=which%20color' })] },
      { content: 'black' },
      { toolCalls: [call('read', { url: 'local://copy.png?question=which color' })] },
      { toolCalls: [call('finish', {})] },
    )
    await h.client('bob').receive('look twice')
    await h.server.waitForRequests(6)
    await h.settled()
    expect(toolResultsOf(h.server.requests[2]).at(-1).content).to.match(/^vision_failed: .*vision backend down/)
    expect(toolResultsOf(h.server.requests[4]).at(-1).content).to.equal('black')
    // the same bytes and question: answered from the cache, no request to the vision model
    expect(toolResultsOf(h.server.requests[5]).at(-1).content).to.equal('black')
    expect(h.server.requests).to.have.length(6)
  })
})

describe('resources: shared helpers', () => {
  it('isTextualType: text and the JSON/XML families are text, other media are not', () => {
    for (const type of ['text/csv', 'text/plain; charset=utf-8', 'application/json', 'application/ld+json', 'application/vnd.api+json', 'application/atom+xml', 'application/jsonl', 'application/x-yaml', 'Application/JSON']) {
      expect(isTextualType(type), type).to.equal(true)
    }
    for (const type of ['image/png', 'application/octet-stream', 'image/svg+xml', 'application/pdf', 'application/jsonp-ish', '', undefined]) {
      expect(isTextualType(type), String(type)).to.equal(false)
    }
  })

  it('fsError: missing is not_found, denied is forbidden, anything else read_failed with its code', () => {
    const fail = (code: string) => Object.assign(new Error(`${code}: /host/path/x.txt`), { code })
    const cases: [string, string][] = [['ENOENT', 'not_found'], ['ENOTDIR', 'not_found'], ['EACCES', 'forbidden'], ['EPERM', 'forbidden'], ['EISDIR', 'read_failed'], ['EIO', 'read_failed']]
    for (const [errno, code] of cases) {
      const e = fsError(fail(errno), 'local://x.txt')
      expect(e, errno).to.be.instanceOf(ResourceError).with.property('code', code)
      expect(e.message, errno).to.include('local://x.txt').and.not.include('/host/path')
    }
    expect(fsError(fail('EIO'), 'local://x.txt').message).to.include('EIO')
    const own = new ResourceError('too_large', 'kept as it is')
    expect(fsError(own, 'local://x.txt')).to.equal(own)
  })
})

describe('resources: media types are sniffed from plausible headers only', () => {
  const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32LE(n); return b }
  const u16 = (n: number) => { const b = Buffer.alloc(2); b.writeUInt16LE(n); return b }
  // a 1x1 24-bit BMP: file header, BITMAPINFOHEADER, one padded pixel row
  const BMP = Buffer.concat([Buffer.from('BM'), u32(58), u32(0), u32(54), u32(40), u32(1), u32(1), u16(1), u16(24), u32(0), u32(4), u32(2835), u32(2835), u32(0), u32(0), Buffer.from([0, 0, 255, 0])])
  const FRAME = Buffer.from([0xff, 0xfb, 0x90, 0x64, ...new Array(200).fill(0)])
  const ID3 = Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0, 0, 0, 0, 10]), Buffer.alloc(10), FRAME])
  const ftyp = (major: string, ...compatible: string[]) => {
    const body = Buffer.from(major + '\0\0\0\0' + compatible.join(''), 'latin1')
    const size = Buffer.alloc(4)
    size.writeUInt32BE(8 + body.length)
    return Buffer.concat([size, Buffer.from('ftyp'), body, Buffer.alloc(64)])
  }

  it('sniffs real headers', () => {
    const cases: [Buffer, string][] = [
      [BMP, 'image/bmp'], [ID3, 'audio/mpeg'], [FRAME, 'audio/mpeg'], [Buffer.from([0xff, 0xf3, 0x64, 0xc4, 0, 0, 0, 0]), 'audio/mpeg'],
      [ftyp('avif', 'avif', 'mif1', 'miaf', 'MA1B'), 'image/avif'], [ftyp('avis', 'avis', 'msf1'), 'image/avif'],
      [ftyp('mif1', 'mif1', 'avif'), 'image/avif'], [ftyp('heic', 'mif1', 'heic'), 'image/heic'], [ftyp('heix', 'mif1'), 'image/heic'],
      [ftyp('mif1', 'mif1', 'heic'), 'image/heic'], [ftyp('msf1', 'msf1', 'hevc'), 'image/heic'], [ftyp('hevc'), 'image/heic'],
      [ftyp('M4A ', 'M4A ', 'mp42', 'isom'), 'audio/mp4'], [ftyp('qt  ', 'qt  '), 'video/quicktime'],
      [ftyp('isom', 'isom', 'iso2', 'avc1', 'mp41'), 'video/mp4'], [ftyp('mp42', 'mp42', 'isom'), 'video/mp4'], [ftyp('dash', 'iso6'), 'video/mp4'],
      [ftyp('M4V ', 'M4V '), 'video/mp4'], [ftyp('3gp5', '3gp5'), 'video/mp4'],
    ]
    for (const [bytes, type] of cases) expect(sniffMediaType(bytes), type + ' ' + bytes.subarray(0, 12).toString('hex')).to.equal(type)
    expect(mediaTypeOfName('photo.avif')).to.equal('image/avif')
    expect(mediaTypeOfName('IMG_0001.HEIC')).to.equal('image/heic')
  })

  const TEXTS = ['BMW is a car\n', 'BM\n', 'BMP files start with BM and a size\n', 'ID3 tags explained\n', 'ID3\n',
    'ID3\u0003 almost\n', '....ftypavif is how AVIF files begin\n', 'abcdftypisom\n', '    ftypqt  \n']
  it('never takes text for media', () => {
    for (const text of TEXTS) expect(sniffMediaType(Buffer.from(text)), JSON.stringify(text)).to.equal(undefined)
    // a UTF-16 byte order mark is not an MPEG frame
    expect(sniffMediaType(Buffer.from('\uFEFFHello\n', 'utf16le'))).to.equal(undefined)
  })

  it('reads such text files as text, and real media as media', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kotodama-sniff-'))
    try {
      for (const [i, text] of TEXTS.entries()) await writeFile(join(dir, `t${i}`), text)
      await writeFile(join(dir, 'picture'), BMP)
      await writeFile(join(dir, 'photo'), ftyp('avif', 'avif', 'mif1'))
      await writeFile(join(dir, 'song'), ID3)
      const local = localScheme(join(dir))
      for (const [i, text] of TEXTS.entries()) {
        expect(await local.read(`local://t${i}`, DIRECT), JSON.stringify(text)).to.deep.include({ kind: 'text', text, mediaType: 'text/plain' })
        expect((await local.bytes(`local://t${i}`)).mediaType, JSON.stringify(text)).to.equal('application/octet-stream')
      }
      expect(await local.read('local://picture', DIRECT)).to.deep.include({ kind: 'file', mediaType: 'image/bmp', width: 1, height: 1 })
      expect(await local.read('local://photo?view=meta', DIRECT)).to.have.nested.property('meta.mediaType', 'image/avif')
      expect(await local.read('local://song?view=meta', DIRECT)).to.have.nested.property('meta.mediaType', 'audio/mpeg')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('resources: asset registration', () => {
  let dir: string
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'kotodama-assets-')) })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  for (const [kind, source] of [['an http source', 'http://127.0.0.1:9/cat.png'], ['a data: URL', `data:image/png;base64,${PNG.toString('base64')}`]]) {
    it(`concurrent registrations of ${kind} share one id, and each can be read as soon as it resolves`, async () => {
      const store = new AssetStore(dir)
      const center = new ResourceCenter()
      center.register(assetScheme(store))
      const readNow = (id: string) => Promise.all([store.sidecar(id), center.read(`asset://${id}?view=meta`, DIRECT)]).then(([, meta]) => ({ id, meta }))
      const got = await Promise.all(Array.from({ length: 3 }, () => store.register(source).then(readNow)))
      expect(new Set(got.map(g => g.id)).size).to.equal(1)
      for (const { meta } of got) expect(meta.kind, JSON.stringify(meta)).to.equal('meta')
      if (source.startsWith('data:')) {
        const reads = await Promise.all(Array.from({ length: 3 }, () => store.register(source).then(id => center.read(`asset://${id}`, DIRECT))))
        for (const r of reads) expect(r).to.deep.include({ kind: 'file', data: PNG.toString('base64') })
      }
      // a fresh store over the same folder knows the id too
      expect(await new AssetStore(dir).register(source)).to.equal(got[0].id)
    })
  }
})
