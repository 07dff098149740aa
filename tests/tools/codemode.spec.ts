import { expect } from 'chai'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { Harness, call } from '../support/harness'
import { imagePartsOf, toolNamesOf, toolResultsOf, messagesOf } from '../support/fake-openai'
import { runtimeHome } from '../../src/runtime/runtime'
import { tinyPng } from '../support/tiny-png'

const PNG = tinyPng(0, 1, 1)
const SLOW_TYPING = { baseDelay: 0, charPerSecond: 1000, minDelay: 120, maxDelay: 200, jitter: 0 }

describe('codemode (SPEC §8)', function () {
  let h: Harness
  afterEach(async () => { await h?.stop() })

  async function start(profile: any = {}, codemode: any = undefined) {
    h = await Harness.start({ profile: { codemode: { enabled: true, direct: [] }, ...profile }, ...(codemode ? { codemode } : {}) })
    const local = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'local')
    await mkdir(local, { recursive: true })
    return local
  }
  /** runs one program through the model and returns what the model saw of it */
  async function program(code: string, n?: number): Promise<string> {
    const before = h.server.requests.length
    h.server.script({ toolCalls: [call('codemode', { code })] }, { toolCalls: [call('finish', {})] })
    await h.client('bob').receive(`run #${before}`)
    await h.server.waitForRequests(before + 2)
    await h.settled()
    return toolResultsOf(h.server.requests[before + 1]).at(-1).content
  }

  it('the catalog: read and business tools move into the sandbox unless listed in direct', async () => {
    await start()
    h.app.plugin({ name: 'biz', inject: ['kotodama'], apply: (ctx: any) => ctx.kotodama.registerTool('lookup', () => ({ description: 'Look a word up', inputSchema: z.object({ word: z.string().describe('the word') }), execute: async ({ word }: any) => ({ word, meaning: 'x' }) })) })
    await h.idle()
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('hi')
    await h.server.waitForRequests(1)
    const req = h.server.requests[0]
    // write, search and schedule are direct and in the sandbox, as send_message (SPEC §13, §17, §25)
    expect(toolNamesOf(req).sort()).to.deep.equal(['codemode', 'finish', 'schedule', 'search', 'send_message', 'wait', 'write'])
    const desc = req.body.tools.find((t: any) => t.function.name === 'codemode').function.description
    expect(desc).to.include('declare const tools: {')
    expect(desc).to.match(/read\(input: \{\n\s+url: string\n\s+\}\): Promise<\{ kind: 'text'/)
    expect(desc).to.match(/lookup\(input: \{\n\s+\/\*\* the word \*\/\n\s+word: string\n\s+\}\): Promise<any>/)
    expect(desc).to.include('send_message(input:')
    expect(desc).to.include('search(input:')
    expect(desc).to.include('schedule(input:')
    expect(desc).to.not.match(/\bfinish\(input/)
    expect(desc).to.not.match(/\bwait\(input/)
    await h.stop()

    await start({ codemode: { enabled: true, direct: ['read'] } })
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('hi')
    await h.server.waitForRequests(1)
    expect(toolNamesOf(h.server.requests[0]).sort()).to.deep.equal(['codemode', 'finish', 'read', 'schedule', 'search', 'send_message', 'wait', 'write'])
    expect(h.server.requests[0].body.tools.find((t: any) => t.function.name === 'codemode').function.description).to.include('read(input:')
  })

  it('with imageInput, read in a program has no lifetime: not declared, and refused when passed', async () => {
    await start({ attachment: { imageInput: true } })
    const out = await program(`return await tools.read({ url: 'local://', lifetime: 'retain' })`)
    expect(JSON.parse(out).error.code).to.equal('invalid_attachment_lifetime')
    const desc = h.server.requests[0].body.tools.find((t: any) => t.function.name === 'codemode').function.description
    expect(desc).to.match(/read\(input: \{\n\s+url: string\n\s+\}\)/)
  })

  it('reads two files with Promise.all and returns a summary', async () => {
    const local = await start()
    await writeFile(join(local, 'a.txt'), 'one\ntwo\n')
    await writeFile(join(local, 'b.txt'), 'three\nfour\nfive\n')
    const out = await program(`const [a, b] = await Promise.all([tools.read({ url: 'local://a.txt' }), tools['read']({ url: 'local://b.txt' })])
console.log('read', a.kind, b.kind)
return { lines: a.text.split('\\n').length - 1 + b.text.split('\\n').length - 1, first: a.text.split('\\n')[0] }`)
    expect(out).to.equal(JSON.stringify({ lines: 5, first: 'one' }, null, 2) + '\n[console]\nread text text')
  })

  it('sends two messages with typing kept, and the turn goes on', async () => {
    await start({ typing: SLOW_TYPING })
    const out = await program(`const r1 = await tools.send_message({ messages: ['hello from code'] })
const r2 = await tools.send_message({ messages: ['and again'] })
return [r1.ok, r2.ok]`)
    expect(JSON.parse(out)).to.deep.equal([true, true])
    expect(h.sent.map(s => s.content)).to.deep.equal(['hello from code', 'and again'])
    expect(h.sent[1].at - h.sent[0].at).to.be.at.least(110)
    expect(h.server.requests).to.have.length(2)   // the program's sends did not end the turn
  })

  it('a failing tool is a catchable error; an unknown tool lists the tools; bad input is explained', async () => {
    await start()
    const out = await program(`const out = []
try { await tools.read({ nope: 1 }) } catch (e) { out.push(e.message) }
try { await tools.reed({ url: 'x' }) } catch (e) { out.push(e.message) }
return out`)
    const [bad, unknown] = JSON.parse(out)
    expect(bad).to.match(/^tool "read" failed: invalid input: url: /)
    expect(unknown).to.match(/reed/)
    expect(unknown).to.match(/read/)
    expect(unknown).to.match(/send_message/)
  })

  it('an uncaught error shows name, message and line', async () => {
    await start()
    const out = await program(`const x = 1\n\nthrow new RangeError('too far')`)
    expect(out).to.match(/^RangeError: too far \(line 3\)/)
  })

  describe('limits', () => {
    const limits = { timeoutMs: 1500, memoryLimitBytes: 32 * 1024 * 1024, maxToolCalls: 3, maxToolInputBytes: 2000, maxToolOutputBytes: 4000, maxResultBytes: 2000 }
    const cases: [string, string, RegExp][] = [
      ['busy loop', 'for (;;) {}', /^TimeoutError/],
      ['never settles', 'await new Promise(() => {})', /^(TimeoutError|DeadlockError)/],
      ['allocation bomb', 'const a = []; for (;;) a.push(new Array(100000).fill(7))', /^MemoryLimitError/],
      ['deep recursion', 'function f(n) { return f(n + 1) + 1 } return f(0)', /^StackOverflowError/],
      ['too many calls', 'for (let i = 0; i < 5; i++) await tools.read({ url: "local://" })', /^ToolCallLimitError/],
      ['oversized input', 'await tools.read({ url: "local://" + "x".repeat(5000) })', /^InputTooLarge/],
      ['oversized output', 'await tools.big({})', /^OutputTooLarge/],
      ['oversized result', 'return "y".repeat(5000)', /^ResultTooLarge/],
    ]
    for (const [name, code, want] of cases) {
      it(`${name} ends with its error, and the next program runs`, async function () {
        this.timeout(30000)
        await start({}, limits)
        h.app.plugin({ name: 'big', inject: ['kotodama'], apply: (ctx: any) => ctx.kotodama.registerTool('big', () => ({ description: 'big', inputSchema: z.object({}), execute: async () => 'z'.repeat(10000) })) })
        await h.idle()
        expect(await program(code)).to.match(want)
        expect(await program('return 40 + 2')).to.equal('42')
      })
    }
  })

  it('escape attempts are contained', async () => {
    await start()
    const out = JSON.parse(await program(`const probe = (f) => { try { return String(f()) } catch (e) { return 'blocked: ' + e.name } }
return {
  require: typeof require, process: typeof process, fetch: typeof fetch, setTimeout: typeof setTimeout,
  fnThis: probe(() => Function('return typeof this.process')()),
  ctor: probe(() => tools.read.constructor.constructor('return typeof process')()),
  globals: Object.getOwnPropertyNames(globalThis).filter(k => !/^[A-Z]/.test(k) && !['globalThis','undefined','NaN','Infinity','eval','isFinite','isNaN','parseFloat','parseInt','decodeURI','decodeURIComponent','encodeURI','encodeURIComponent','escape','unescape'].includes(k)).sort(),
  polluted: (Object.prototype.kotodamaPolluted = 1, 'set'),
}`))
    expect(out).to.deep.include({ require: 'undefined', process: 'undefined', fetch: 'undefined', setTimeout: 'undefined', fnThis: 'undefined', ctor: 'undefined' })
    expect(out.globals).to.deep.equal(['console', 'tools'])
    expect(({} as any).kotodamaPolluted).to.equal(undefined)
    const result = await program('return JSON.parse(\'{"__proto__": {"hacked": true}}\')')
    expect(({} as any).hacked).to.equal(undefined)
    expect(result).to.not.include('hacked": true}}')
  })

  it('attachments returned with lifetimes reach the request; media not returned leave nothing', async () => {
    const local = await start({ attachment: { imageInput: true } })
    await writeFile(join(local, 'dot.png'), PNG)
    await writeFile(join(local, 'other.png'), Buffer.concat([PNG, Buffer.from([1])]))
    const artifactsDir = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'artifacts')
    const out = await program(`const [a, b] = await Promise.all([tools.read({ url: 'local://dot.png' }), tools.read({ url: 'local://other.png' })])
return { note: 'one kept', seen: b.byteLength, attachments: [{ ...a, lifetime: 'retain' }, { type: 'image', data: a.data, mimeType: 'image/png', lifetime: 'forever' }] }`)
    const shown = JSON.parse(out.replace(/^[\s\S]*?(\{)/, '$1'))
    expect(shown.note).to.equal('one kept')
    expect(shown.attachments[0]).to.match(new RegExp(`^\\[attachment: artifact://codemode/[0-9a-f]{20}\\.png; image/png; ${PNG.length} bytes; 1x1\\]$`))
    expect(shown.attachments[1]).to.match(/refused: invalid_attachment_lifetime/)
    expect(imagePartsOf(h.server.requests[1])).to.deep.equal([`data:image/png;base64,${PNG.toString('base64')}`])
    const names = await readdir(join(artifactsDir, 'codemode'))
    expect(names.filter(n => n.endsWith('.png'))).to.have.length(1)   // other.png was seen, not returned: no artifact
    h.server.script({ toolCalls: [call('finish', {})] })
    await h.client('bob').receive('later')
    await h.server.waitForRequests(3)
    expect(imagePartsOf(h.server.requests[2])).to.have.length(1)      // retain
  })

  it('a 1 MiB value passes between two host calls without being archived', async () => {
    await start({}, { maxToolInputBytes: 4 << 20 })
    h.app.plugin({
      name: 'bytes', inject: ['kotodama'], apply: (ctx: any) => {
        ctx.kotodama.registerTool('make', () => ({ description: 'make', inputSchema: z.object({}), execute: async () => ({ blob: 'q'.repeat(1 << 20) }) }))
        ctx.kotodama.registerTool('measure', () => ({ description: 'measure', inputSchema: z.object({ blob: z.string() }), execute: async ({ blob }: any) => ({ length: blob.length, ok: /^q+$/.test(blob) }) }))
      },
    })
    await h.idle()
    const out = await program('const m = await tools.make({}); return await tools.measure({ blob: m.blob })')
    expect(JSON.parse(out)).to.deep.equal({ length: 1 << 20, ok: true })
    const dir = join(runtimeHome(h.dataDir, 'neko', 'mock:514'), 'artifacts')
    expect(await readdir(dir)).to.deep.equal([])
  })

  it('a program that times out during a typing pause speaks no more, and its result says what was sent (SPEC §10)', async () => {
    await start({ typing: { baseDelay: 4000, charPerSecond: 1000, minDelay: 4000, maxDelay: 4000, jitter: 0 } }, { timeoutMs: 2000 })
    const out = await program(`await tools.send_message({ messages: ['late'] })`)
    expect(out).to.match(/^TimeoutError: /)
    expect(out).to.include('[calls still running when the program ended]')
    expect(out).to.match(/send_message: \{"ok":false,"error":\{"name":"SendFailed","message":"not sent: the call was aborted[^"]*"\},"sent":\[\],"failedAt":0\}/)
    await h.idle(2500)   // past the typing pause: the message would have gone out by now
    expect(h.sent.map(s => s.content)).to.not.include('late')
  })
})
