// SPEC §10: reads open regular files only (FIFOs, sockets and devices are forbidden without being
// opened, and one stuck read never delays the others: workspace roots, maybe network mounts, get
// only async fs calls); errors quote at most 200 units of a value.
import { expect } from 'chai'
import { execFileSync } from 'node:child_process'
import { closeSync, constants, openSync } from 'node:fs'
import { link, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { mock } from 'node:test'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ResourceCenter } from '../../src/resources/center'
import { ResourceError } from '../../src/resources/errors'
import { readFileTarget } from '../../src/resources/text/file-read'
import { parseFileUrl } from '../../src/resources/file-url'
import { builtinSchemes } from '../../src/resources/schemes'
import { localScheme } from '../../src/resources/schemes/local'
import { TextCache } from '../../src/resources/text'
import { ArtifactStore } from '../../src/resources/schemes/artifact-store'
import { AssetStore } from '../../src/resources/schemes/asset-store'
import { workspaceScheme } from '../../src/resources/schemes/workspace'
import { workspaceUrlOf } from '../../src/resources/schemes/workspace-path'
import type { ReadResult, SchemeHandler } from '../../src/resources/types'
import { uuidv7 } from '../../src/util/uuidv7'
import { tinyPng } from '../support/tiny-png'

const DIRECT = { whole: false, maxBytes: 1 << 25 }
const WHOLE = { whole: true, maxBytes: 1 << 20 }
const PNG = tinyPng(0, 1, 1)
const code = (r: ReadResult) => r.kind === 'error' ? r.error.code : r.kind

/** `p`, or a failure naming `what` when it has not settled within `ms`. */
function within<T>(ms: number, p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms) })
  return Promise.race([p, late]).finally(() => clearTimeout(timer))
}

describe('faults: special files are never opened', function () {
  let dir: string
  let root: string
  let center: ResourceCenter
  let ws: string

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-special-'))
    root = join(dir, 'local')
    await mkdir(root, { recursive: true })
    await writeFile(join(root, 'ok.txt'), 'fine\n')
    center = new ResourceCenter()
    for (const h of builtinSchemes({ assets: new AssetStore(join(dir, 'assets')), artifacts: new ArtifactStore(join(dir, 'artifacts')), localRoot: root })) center.register(h)
    center.register(workspaceScheme([root], 'posix'))
    ws = workspaceUrlOf(root, 'posix')
  })
  after(() => rm(dir, { recursive: true, force: true }))

  /** Every way a file-scheme URL can be read, each expected to be forbidden at once. */
  async function expectForbidden(name: string): Promise<void> {
    const urls = [`local://${name}`, `local://${name}?view=meta`, `local://${name}:1-2`, `${ws}/${name}`, `${ws}/${name}?view=meta`]
    for (const url of urls) {
      for (const opts of [DIRECT, WHOLE]) {
        const r = await within(2000, center.read(url, opts), `read ${url}`)
        expect(code(r), `${url} ${JSON.stringify(r).slice(0, 200)}`).to.equal('forbidden')
      }
    }
    for (const url of [`local://${name}`, `${ws}/${name}`]) {
      const e = await within(2000, center.bytes(url).then(() => 'sent', (e) => e), `bytes ${url}`)
      expect(e, url).to.be.instanceOf(ResourceError).with.property('code', 'forbidden')
    }
    // an extension's own scheme through readFileTarget
    const ext = await within(2000, readFileTarget(parseFileUrl(`ext://${name}`), { path: join(root, name) }, DIRECT).catch((e) => e), 'readFileTarget')
    expect(ext).to.be.instanceOf(ResourceError).with.property('code', 'forbidden')
  }

  describe('a named pipe', () => {
    const fifo = () => join(root, 'fifo')
    before(function () {
      try {
        execFileSync('mkfifo', [fifo()])
      } catch (e: any) {
        console.log(`      (skipped: mkfifo failed here: ${String(e?.message ?? e).split('\n')[0]})`)
        this.skip()
      }
    })
    // Wakes any open still waiting for a writer (a build that opens pipes), so nothing stays blocked.
    afterEach(() => {
      try {
        closeSync(openSync(fifo(), constants.O_WRONLY | constants.O_NONBLOCK))
      } catch {}
    })

    it('four parallel reads answer forbidden at once, and other file I/O goes on meanwhile', async () => {
      const reads = Array.from({ length: 4 }, () => center.read('local://fifo', DIRECT))
      // async file I/O shares the thread pool a blocked open would hold
      expect((await within(1000, readFile(join(root, 'ok.txt'), 'utf8'), 'another read meanwhile'))).to.equal('fine\n')
      const results = await within(2000, Promise.all(reads), 'four reads of a pipe')
      expect(results.map(code)).to.deep.equal(['forbidden', 'forbidden', 'forbidden', 'forbidden'])
      expect((results[0] as any).error.message).to.include('local://fifo')
    })

    it('is forbidden for every view, whole reads, bytes and readFileTarget', async () => {
      await expectForbidden('fifo')
    })

    it('shows in its folder listing', async () => {
      const listing = await within(2000, center.read('local://', DIRECT), 'listing') as any
      expect(listing.kind).to.equal('text')
      expect(listing.text.split('\n').some((l: string) => l.startsWith('fifo'))).to.equal(true)
    })
  })

  it('a socket is forbidden', async () => {
    const server: Server = createServer()
    await new Promise<void>((resolve) => server.listen(join(root, 'sock'), resolve))
    try {
      await expectForbidden('sock')
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('a character device made inside the root is forbidden (needs root to mknod)', async function () {
    if (process.getuid?.() !== 0) {
      console.log('      (skipped: making a device with mknod needs root)')
      return this.skip()
    }
    try {
      execFileSync('mknod', [join(root, 'zero'), 'c', '1', '5'])
    } catch (e: any) {
      console.log(`      (skipped: mknod failed here: ${String(e?.message ?? e).split('\n')[0]})`)
      return this.skip()
    }
    try {
      await expectForbidden('zero')
    } finally {
      await rm(join(root, 'zero'), { force: true })
    }
  })
})

describe('faults: errors quote at most 200 units of a URL', function () {
  const LONG = 'a'.repeat(100_000)
  const SELECTORS = ':1'.repeat(50_000)
  let dir: string
  let root: string
  let center: ResourceCenter
  let ws: string

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-long-'))
    root = join(dir, 'local')
    await mkdir(join(dir, 'outside'), { recursive: true })
    await mkdir(root, { recursive: true })
    await writeFile(join(root, 'notes.txt'), 'one\ntwo\n')
    await writeFile(join(root, 'dot.png'), PNG)
    await writeFile(join(dir, 'outside', 'secret.txt'), 'secret\n')
    await symlink(join(dir, 'outside'), join(root, 'escape'))
    center = new ResourceCenter()
    for (const h of builtinSchemes({ assets: new AssetStore(join(dir, 'assets')), artifacts: new ArtifactStore(join(dir, 'artifacts')), localRoot: root })) center.register(h)
    center.register(workspaceScheme([root], 'posix'))
    ws = workspaceUrlOf(root, 'posix')
  })
  after(() => rm(dir, { recursive: true, force: true }))

  const cases: [string, () => string][] = [
    ['invalid_url', () => `local://${LONG}%zz`],
    ['invalid_url', () => `local:/${LONG}`],
    ['invalid_url', () => LONG],
    ['invalid_url', () => `local://notes.txt?${LONG}=1`],
    ['invalid_url', () => `local://notes.txt?offset=${LONG}`],
    ['invalid_url', () => `asset://${LONG}`],
    ['invalid_url', () => `artifact://${LONG}`],
    ['invalid_url', () => `workspace://${LONG}`],
    ['invalid_selector', () => `local://notes.txt:${LONG}`],
    ['unsupported_view', () => `local://notes.txt?view=${LONG}`],
    ['unknown_scheme', () => `${LONG}://x`],
    ['not_found', () => `local://nothing.txt${SELECTORS}`],
    ['not_found', () => `asset://${uuidv7()}${SELECTORS}`],
    ['not_found', () => `artifact://read/0123456789abcdef0123.txt${SELECTORS}`],
    ['not_found', () => `${ws}/nothing.txt${SELECTORS}`],
    ['forbidden', () => `local://escape/secret.txt${SELECTORS}`],
    ['forbidden', () => `workspace:///${LONG}`],
    ['not_text', () => `local://dot.png${SELECTORS}`],
    ['invalid_url', () => `local://${LONG}`],  // a name too long for the file system
  ]
  for (const [expected, url] of cases) {
    it(`${expected}: ${url().replace('undefined', 'workspace:///<root>').slice(0, 40)}…`, async () => {
      const r = await center.read(url(), DIRECT)
      expect(code(r)).to.equal(expected)
      const { message } = (r as any).error
      expect(message.length, message.slice(0, 300)).to.be.below(1000)
      expect(message).to.include('…')
    })
  }

  it('a handler that does not clip its message is capped by the center', async () => {
    const loud = (scheme: string, error: () => Error): SchemeHandler => ({
      scheme, read: async () => { throw error() }, bytes: async () => { throw error() },
    })
    center.register(loud('loud', () => new ResourceError('read_failed', `cannot read ${LONG}`)))
    center.register(loud('plain', () => new Error(`broken: ${LONG}`)))
    for (const url of ['loud://x', 'plain://x']) {
      const r = await center.read(url, DIRECT)
      expect(code(r)).to.equal('read_failed')
      expect((r as any).error.message.length).to.be.at.most(1000)
      expect((r as any).error.message).to.include('…')
    }
  })
})

// The module object itself (a namespace import would be a copy): the spies below replace its functions.
const fs = require('node:fs') as typeof import('node:fs')
const SYNC_FS = ['statSync', 'lstatSync', 'realpathSync', 'openSync', 'readSync', 'fstatSync', 'closeSync', 'readFileSync', 'readdirSync', 'existsSync', 'accessSync'] as const

/** Counts calls to synchronous fs functions until restored; they still run. */
function spySyncFs(): { calls: () => string[], restore: () => void } {
  const seen: string[] = []
  const native = fs.realpathSync.native
  for (const name of SYNC_FS) {
    const original = (fs as any)[name]
    mock.method(fs as any, name, function (this: unknown, ...args: unknown[]) {
      seen.push(name)
      return original.apply(this, args)
    })
  }
  // realpathSync.native hangs off the function: the spy carries one too
  ;(fs.realpathSync as any).native = function (this: unknown, ...args: unknown[]) {
    seen.push('realpathSync.native')
    return (native as any).apply(this, args)
  }
  return { calls: () => [...seen], restore: () => mock.restoreAll() }
}

describe('resources: workspace roots are read with asynchronous calls only', function () {
  let dir: string
  const text = Array.from({ length: 6000 }, (_, i) => `${i + 1} ${'中文 text 😀 '.repeat(i % 9)}${i === 2500 ? 'x'.repeat(40_000) : ''}\n`).join('')
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-ws-'))
    await mkdir(join(dir, 'sub'), { recursive: true })
    await writeFile(join(dir, 'big.txt'), text)
    await writeFile(join(dir, 'small.txt'), 'one\ntwo\n')
    await writeFile(join(dir, 'dot.png'), PNG)
  })
  after(() => rm(dir, { recursive: true, force: true }))

  function centers() {
    const local = new ResourceCenter()
    local.register(localScheme(dir))
    const ws = new ResourceCenter()
    ws.register(workspaceScheme([dir], 'posix'))
    return { local, ws, base: workspaceUrlOf(dir, 'posix') }
  }

  async function chain(center: ResourceCenter, url: string): Promise<any[]> {
    const files = new TextCache()
    const pages: any[] = []
    for (let next: string | undefined = url; next;) {
      const page = await center.read(next, { ...DIRECT, files }) as any
      pages.push(page)
      next = page.continueUrl
    }
    return pages
  }

  it('a workspace read gives the same pages as a local read of the same file', async () => {
    const { local, ws, base } = centers()
    // the same file under a folder whose URL is as long as the workspace one: notes, and so pages, match
    const pad = 'p'.repeat(base.length - 'local://'.length)
    await mkdir(join(dir, pad))
    for (const name of ['big.txt', 'small.txt']) await link(join(dir, name), join(dir, pad, name))
    for (const [name, suffix] of [['big.txt', ''], ['big.txt', ':2400-2600'], ['small.txt', ''], ['big.txt', '?view=meta']]) {
      const a = await chain(local, `local://${pad}/${name}${suffix}`)
      const b = await chain(ws, `${base}/${name}${suffix}`)
      const strip = (pages: any[], prefix: string) => JSON.parse(JSON.stringify(pages).split(prefix).join('URL/').replace('"scheme":"workspace"', '"scheme":"local"'))
      expect(strip(b, base + '/'), `${name}${suffix}`).to.deep.equal(strip(a, `local://${pad}/`))
      if (name === 'big.txt' && !suffix) {
        expect(a.length).to.be.above(3)
        expect(a.map(p => p.text).join('')).to.equal(text)
      }
    }
  })

  it('a workspace read calls no synchronous fs function (a local read does)', async () => {
    const { local, ws, base } = centers()
    const spy = spySyncFs()
    let calls: string[]
    try {
      const reads = [
        `${base}/big.txt`, `${base}/big.txt?offset=100`, `${base}/big.txt:3000`, `${base}/small.txt`, `${base}/small.txt?view=meta`,
        `${base}/dot.png`, `${base}/dot.png?view=meta`, `${base}/sub`, `${base}/`, `${base}/nothing.txt`, `${base}/../x`,
      ]
      for (const url of reads) await ws.read(url, { ...DIRECT, files: new TextCache() })
      await ws.read(`${base}/big.txt:1-10`, { whole: true, maxBytes: 1 << 20, files: new TextCache() })
      await ws.read(`${base}/small.txt`, { whole: true, maxBytes: 1 << 20, files: new TextCache() })
      await ws.bytes(`${base}/dot.png`)
      await chain(ws, `${base}/big.txt`)
      calls = spy.calls()
      await local.read('local://small.txt', { ...DIRECT, files: new TextCache() })
    } finally {
      spy.restore()
    }
    expect(calls, 'sync calls during workspace reads').to.deep.equal([])
    expect(spy.calls().length, 'the spy sees the local read').to.be.above(0)
  })
})
