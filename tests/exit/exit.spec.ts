import { expect } from 'chai'
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { asMediaNode, replaceMedia } from '../../src/exit/media-nodes'
import { exitToolResult, type ExitContext } from '../../src/exit/tool-output'
import { ArtifactStore } from '../../src/resources/schemes/artifact-store'
import { AssetStore } from '../../src/resources/schemes/asset-store'
import { artifactScheme } from '../../src/resources/schemes/artifact'
import type { Tool } from '../../src/contract/tool'
import { presentRead } from '../../src/tools/read-output'
import { tinyPng } from '../support/tiny-png'

const PNG = tinyPng(0, 1, 1)
const B64 = PNG.toString('base64')
const LINE = new RegExp(`^\\[attachment: artifact://probe/[0-9a-f]{20}\\.png; image/png; ${PNG.length} bytes; 1x1\\]$`)
const plain: Tool = { description: '', inputSchema: z.any(), execute: async () => null }
const readLike: Tool = { ...plain, present: presentRead }

describe('unified exit (SPEC §7)', function () {
  let dir: string
  let ctx: ExitContext
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kotodama-exit-'))
    ctx = { tool: 'probe', callId: 'c1', stores: { artifacts: new ArtifactStore(join(dir, 'artifacts')), assets: new AssetStore(join(dir, 'assets')) } }
  })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  const run = (raw: unknown, tool: Tool = plain) => exitToolResult(tool, {}, raw, ctx)

  it('a string is shown as itself and other values as JSON', async () => {
    expect((await run('hello')).output).to.deep.equal({ type: 'text', value: 'hello' })
    expect((await run({ a: 1 })).output).to.deep.equal({ type: 'json', value: { a: 1 } })
    expect((await run(undefined)).output).to.deep.equal({ type: 'json', value: null })
  })

  it('MCP image and audio blocks, embedded resources and nested nodes become attachment lines', async () => {
    const r = await run({ content: [{ type: 'text', text: 'hi' }, { type: 'image', data: B64, mimeType: 'image/png' }], deep: { deeper: [{ type: 'resource', resource: { uri: 'x://a.png', mimeType: 'image/png', blob: B64 } }] } })
    const v = (r.output as any).value
    expect(v.content[0]).to.deep.equal({ type: 'text', text: 'hi' })
    expect(v.content[1]).to.match(LINE)
    expect(v.deep.deeper[0]).to.match(LINE)
    expect(r.attachments).to.have.length(2)
    expect(r.attachments[0]).to.deep.include({ mediaType: 'image/png', byteLength: PNG.length, width: 1, height: 1, lifetime: 'once' })
    expect(r.attachments[0].url).to.equal(r.attachments[1].url)   // same bytes, one artifact
    const audio = await run({ type: 'audio', data: Buffer.from('ID3xxxx').toString('base64'), mimeType: 'audio/mpeg' })
    expect((audio.output as any).value).to.match(/^\[attachment: artifact:\/\/probe\/[0-9a-f]{20}\.mp3; audio\/mpeg; 7 bytes\]$/)
  })

  it('a result leaves the exit as plain JSON: dates, undefined and NaN normalised, cycles and BigInt refused (SPEC §10)', async () => {
    const r = await run({ now: new Date(0), gone: undefined, n: NaN, inf: -Infinity, list: [undefined, () => 1, 2], nested: { at: new Date(86400000) }, map: new Map([[1, 2]]) })
    expect(r.output).to.deep.equal({ type: 'json', value: { now: '1970-01-01T00:00:00.000Z', n: null, inf: null, list: [null, null, 2], nested: { at: '1970-01-02T00:00:00.000Z' }, map: {} } })
    expect(JSON.stringify((r.output as any).value)).to.equal(JSON.stringify({ now: new Date(0), gone: undefined, n: NaN, inf: -Infinity, list: [undefined, () => 1, 2], nested: { at: new Date(86400000) }, map: new Map([[1, 2]]) }))
    const cyclic: any = { a: { b: {} } }
    cyclic.a.b.back = cyclic
    const c = await run(cyclic)
    expect(c.output).to.deep.equal({ type: 'error-text', value: "the tool's result cannot be shown: a.b.back refers to itself (a cycle), which JSON cannot hold" })
    const big = await run({ count: 10n })
    expect(big.output).to.deep.equal({ type: 'error-text', value: "the tool's result cannot be shown: count is a BigInt, which JSON cannot hold" })
    // a plain value is passed on as the same object: no copy of a large clean result
    const clean = { rows: [{ a: 1, b: 'x' }], ok: true }
    expect((await run(clean)).output).to.deep.equal({ type: 'json', value: clean })
    expect(((await run(clean)).output as any).value).to.equal(clean)
    // a shared (not cyclic) object is fine
    const shared = { x: 1 }
    expect((await run({ a: shared, b: shared })).output).to.deep.equal({ type: 'json', value: { a: { x: 1 }, b: { x: 1 } } })
  })

  it('a plain field holding base64 is never guessed to be media', async () => {
    const raw = { image: B64, data: B64, mimeType: 'image/png', file: { data: B64 } }
    const r = await run(raw)
    expect(r.output).to.deep.equal({ type: 'json', value: raw })
    expect(r.attachments).to.deep.equal([])
  })

  it('a large value without media passes through as is; media nested deep are still found', async () => {
    const rows = Array.from({ length: 20000 }, (_, i) => ({ i, name: `row ${i}`, tags: ['a', 'b'], data: B64, mimeType: 'image/png' }))
    const big = { rows }
    expect(await replaceMedia(big, async () => { throw new Error('no media here') })).to.equal(big)   // the same object, not a copy
    const r = await run(big)
    expect(r.attachments).to.deep.equal([])
    const url = /(artifact:\/\/probe\/[0-9a-f]{20}\.json)\?offset=/.exec((r.output as any).value)[1]
    const original = await artifactScheme(ctx.stores.artifacts).read(`${url}?view=original`, { whole: true, maxBytes: 1 << 25 }) as any
    expect(original.text).to.equal(JSON.stringify(big))
    // named by the data then the readable view, hashed once; the sidecar keeps the data's own hash
    const sha = (...parts: string[]) => parts.reduce((h, p) => h.update(p), createHash('sha256')).digest('hex')
    const compact = JSON.stringify(big)
    expect(url).to.equal(`artifact://probe/${sha(compact, `\u0000view:${Buffer.byteLength(compact)}\u0000`, JSON.stringify(big, null, 2)).slice(0, 20)}.json`)
    const name = url.slice('artifact://probe/'.length)
    expect((await ctx.stores.artifacts.sidecar('probe', name)).sha256).to.equal(sha(JSON.stringify(big)))
    const store = ctx.stores.artifacts
    const a = await store.write({ namespace: 'probe', data: '{"a":1}', mediaType: 'application/json', readable: 'one view' })
    const b = await store.write({ namespace: 'probe', data: '{"a":1}', mediaType: 'application/json', readable: 'another view' })
    expect(a).to.not.equal(b)   // the same original with another readable view is another artifact
    expect(await store.write({ namespace: 'probe', data: '{"a":1}', mediaType: 'application/json', readable: 'one view' })).to.equal(a)

    // 40 levels down, through arrays and objects, beside a sibling that must not be copied
    const sibling = { keep: [1, 2, 3] }
    let deep: any = { type: 'image', data: B64, mimeType: 'image/png' }
    for (let d = 0; d < 40; d++) deep = d % 2 ? { sibling, next: deep } : [deep, sibling]
    const before = JSON.stringify(deep)
    const out = await run(deep)
    expect(JSON.stringify(deep)).to.equal(before)   // the input is never mutated
    expect(out.output.type).to.equal('json')
    let at: any = (out.output as any).value
    for (let d = 39; d >= 0; d--) {
      expect(d % 2 ? at.sibling : at[1]).to.equal(sibling)   // unchanged branches are shared, not copied
      at = d % 2 ? at.next : at[0]
    }
    expect(at).to.match(LINE)
    expect(out.attachments).to.have.length(1)
    // the media node itself as the whole value
    const whole = (await run({ type: 'image', data: B64, mimeType: 'image/png' })).output as any
    expect(whole.type).to.equal('json')
    expect(whole.value).to.match(LINE)
  })

  it('toModelOutput runs first; its content parts are media nodes; errors pass through unchanged', async () => {
    const tool: Tool = { ...plain, toModelOutput: () => ({ type: 'content', value: [{ type: 'text', text: 'look:' }, { type: 'image-data', data: B64, mediaType: 'image/png' }] }) }
    const r = await run('ignored', tool)
    expect(r.output.type).to.equal('text')
    const [first, second] = (r.output as any).value.split('\n')
    expect(first).to.equal('look:')
    expect(second).to.match(LINE)
    const err: Tool = { ...plain, toModelOutput: () => ({ type: 'error-text', value: 'x'.repeat(100_000) }) }
    expect((await run(null, err)).output).to.deep.equal({ type: 'error-text', value: 'x'.repeat(100_000) })
    const readErr = await exitToolResult(readLike, {}, { kind: 'error', url: 'local://x', error: { code: 'not_found', message: 'gone' } }, { ...ctx, tool: 'read' })
    expect(readErr.output).to.deep.equal({ type: 'error-text', value: 'not_found: gone' })
  })

  it('a read file result is stored; an unchanged asset keeps its URL, changed bytes become a new artifact', async () => {
    const assets = ctx.stores.assets
    const id = await assets.register(`data:image/png;base64,${B64}`)
    const same = await exitToolResult(readLike, {}, { kind: 'file', url: `asset://${id}`, mediaType: 'image/png', data: B64, byteLength: PNG.length }, { ...ctx, tool: 'read' })
    expect(same.attachments[0].url).to.equal(`asset://${id}`)
    expect((same.output as any).value).to.equal(`[attachment: asset://${id}; image/png; ${PNG.length} bytes; 1x1]`)
    const changed = Buffer.concat([PNG, Buffer.from([0])]).toString('base64')
    const other = await exitToolResult(readLike, {}, { kind: 'file', url: `asset://${id}`, mediaType: 'image/png', data: changed, byteLength: 71 }, { ...ctx, tool: 'read' })
    expect(other.attachments[0].url).to.match(/^artifact:\/\/read\/[0-9a-f]{20}\.png$/)
    const local = await exitToolResult(readLike, {}, { kind: 'file', url: 'local://dot.png', mediaType: 'image/png', data: B64, byteLength: PNG.length }, { ...ctx, tool: 'read' })
    expect(local.attachments[0].url).to.match(/^artifact:\/\/read\//)
  })

  it('the exit knows no tool by name: a tool presents its own result with the exit\'s services', async () => {
    // named 'read', but without read's presenter: shown as plain JSON, the file node attached
    const file = { kind: 'file', url: 'local://dot.png', mediaType: 'image/png', data: B64, byteLength: PNG.length }
    const asRead = await exitToolResult(plain, {}, file, { ...ctx, tool: 'read' })
    expect(asRead.output.type).to.equal('json')
    expect((asRead.output as any).value).to.match(/^\[attachment: artifact:\/\/read\//)
    // any tool may present: here an MCP-like result whose image keeps the lifetime it chose
    const mcpLike: Tool = { ...plain, present: async (out: any, _input, exit) => ({ type: 'text', value: [out.text, await exit.attach(asMediaNode(out.image), 'retain')].join('\n') }) }
    const r = await exitToolResult(mcpLike, {}, { text: 'chart:', image: { type: 'image', data: B64, mimeType: 'image/png' } }, { ...ctx, tool: 'charts_draw' })
    expect((r.output as any).value.split('\n')[1]).to.match(new RegExp(`^\\[attachment: artifact://charts_draw/[0-9a-f]{20}\\.png; image/png; ${PNG.length} bytes; 1x1\\]$`))
    expect(r.attachments).to.have.length(1)
    expect(r.attachments[0].lifetime).to.equal('retain')
    // read's presenter takes the call's lifetime
    const kept = await exitToolResult(readLike, { lifetime: 'recent' }, file, { ...ctx, tool: 'read' })
    expect(kept.attachments[0].lifetime).to.equal('recent')
  })

  it('a 2 MB JSON result is archived once; the Continue chain gives back the readable view', async () => {
    const value = { rows: Array.from({ length: 20000 }, (_, i) => ({ i, name: `row ${i}`, tags: ['a', 'b'], image: i === 5 ? { type: 'image', data: B64, mimeType: 'image/png' } : null })) }
    const r = await run(value)
    const text = (r.output as any).value as string
    expect(text.length).to.be.at.most(30000)
    const m = /\[truncated; to continue, call read\(\{url: "(artifact:\/\/probe\/[0-9a-f]{20}\.json)\?offset=(\d+)"\}\)\]$/.exec(text)
    expect(m, text.slice(-200)).to.not.equal(null)
    const url = m[1]
    const files = (await import('node:fs/promises')).readdir
    expect((await files(join(dir, 'artifacts', 'probe'))).filter(f => f.endsWith('.json.json'))).to.have.length(1)   // one sidecar for the archive (+ the image's .png.json)
    const scheme = artifactScheme(ctx.stores.artifacts)
    let body = text.slice(0, Number(m[2]))
    let next = `${url}?offset=${m[2]}`
    while (next) {
      const page = await scheme.read(next, { whole: false, maxBytes: 1 << 25 }) as any
      body += page.text
      next = page.continueUrl
    }
    const readable = JSON.stringify({ ...value, rows: value.rows.map(row => row.image ? { ...row, image: (r.attachments[0] && `[attachment: ${r.attachments[0].url}; image/png; ${PNG.length} bytes; 1x1]`) } : row) }, null, 2)
    expect(body).to.equal(readable)
    const original = await scheme.read(`${url}?view=original`, { whole: true, maxBytes: 1 << 25 }) as any
    expect(JSON.parse(original.text)).to.deep.equal(JSON.parse(readable))
    expect(original.text).to.not.include('\n  ')
  })

  it('a long string result is archived as .txt and paged from it', async () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n')
    const r = await run(text)
    expect((r.output as any).value).to.match(/read\(\{url: "artifact:\/\/probe\/[0-9a-f]{20}\.txt\?offset=\d+"\}\)\]$/)
    const stored = await readFile(join(dir, 'artifacts', 'probe', /probe\/([0-9a-f]{20}\.txt)/.exec((r.output as any).value)[1]), 'utf8')
    expect(stored).to.equal(text)
  })
})
