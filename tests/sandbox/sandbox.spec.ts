// The QuickJS sandbox through its real worker pool: semantics, every limit, containment, and
// the life of Sandbox instances.
import { expect } from 'chai'
import FakeTimers from '@sinonjs/fake-timers'
import { Sandbox, WATCHDOG_GRACE_MS, type HostTool, type ProgramOutcome, type SandboxLimits } from '../../src/sandbox'
import { captureClock } from '../../src/util/clock'
import { until } from '../support/app-waits'

const MiB = 1 << 20

const limits: SandboxLimits = {
  timeoutMs: 1500,
  memoryLimitBytes: 32 * MiB,
  maxToolCalls: 2000,
  maxToolInputBytes: 4 * MiB,
  maxToolOutputBytes: 4 * MiB,
  maxResultBytes: 4 * MiB,
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const tools: Record<string, HostTool> = {
  echo: async (input) => input,
  add: async (input) => {
    const { a, b } = input as { a: number; b: number }
    return a + b
  },
  fail: async () => {
    throw new Error('upstream 503')
  },
  nothing: async () => undefined,
}

const sandbox = new Sandbox()

function run(code: string, extra: Partial<SandboxLimits> = {}, more: Record<string, HostTool> = {}, signal?: AbortSignal, on = sandbox) {
  return on.run(code, { tools: { ...tools, ...more }, limits: { ...limits, ...extra }, signal })
}

function expectOk(o: ProgramOutcome): unknown {
  if (o.ok === false) expect.fail(`program failed: ${o.error.name}: ${o.error.message}`)
  return o.value
}

function expectError(o: ProgramOutcome, name: string) {
  if (o.ok === true) expect.fail(`expected ${name}, got ok ${JSON.stringify(o.value)}`)
  expect(o.error.name, o.error.message).to.equal(name)
  return o.error
}

async function expectHealthy() {
  const o = await run('return (await tools.add({ a: 2, b: 3 })) * 2')
  expect(expectOk(o)).to.equal(10)
}

// The standard globals of a fresh bellard QuickJS context
const STANDARD_GLOBALS = `AggregateError Array ArrayBuffer BigInt BigInt64Array BigUint64Array Boolean DataView Date Error
  EvalError FinalizationRegistry Float16Array Float32Array Float64Array Function Infinity Int16Array Int32Array Int8Array
  InternalError Iterator JSON Map Math NaN Number Object Promise Proxy RangeError ReferenceError Reflect RegExp Set
  SharedArrayBuffer String Symbol SyntaxError TypeError URIError Uint16Array Uint32Array Uint8Array Uint8ClampedArray
  WeakMap WeakRef WeakSet decodeURI decodeURIComponent encodeURI encodeURIComponent escape eval globalThis isFinite
  isNaN parseFloat parseInt undefined unescape`.split(/\s+/)

describe('sandbox', function () {
  this.timeout(20000)

  before(() => sandbox.warmUp())
  after(() => sandbox.shutdown())

  describe('programs and tools', () => {
    it('runs the body of an async function: await, return, no return gives null', async () => {
      expect(expectOk(await run('const x = await tools.echo({ a: [1, "b"] })\nreturn { x, n: 1 }'))).to.deep.equal({ x: { a: [1, 'b'] }, n: 1 })
      expect(expectOk(await run('await tools.echo(1)'))).to.equal(null)
      expect(expectOk(await run('return await tools["add"]({ a: 1, b: 2 })'))).to.equal(3)
      expect(expectOk(await run('return await tools.nothing()'))).to.equal(null)
    })

    it('runs the tools of a Promise.all concurrently', async () => {
      let active = 0
      let peak = 0
      const slow: HostTool = async (input) => {
        active++
        peak = Math.max(peak, active)
        await sleep(300)
        active--
        return input
      }
      const t0 = performance.now()
      const o = await run('return await Promise.all([tools.slow("a"), tools.slow("b")])', {}, { slow })
      expect(expectOk(o)).to.deep.equal(['a', 'b'])
      expect(peak).to.equal(2)
      expect(performance.now() - t0).to.be.below(580)
      expect(o.stats.toolCalls).to.equal(2)
    })

    it('completes 1,000 concurrent calls correctly', async () => {
      const o = await run('const r = await Promise.all(Array.from({ length: 1000 }, (_, i) => tools.echo({ i }))); return r.every((x, i) => x.i === i) && r.length')
      expect(expectOk(o)).to.equal(1000)
      expect(o.stats.toolCalls).to.equal(1000)
    })

    it('surfaces a failing tool as a catchable ToolError with the exact message', async () => {
      const o = await run('try { await tools.fail({}) } catch (e) { return [e.name, e.message, e instanceof Error] }')
      expect(expectOk(o)).to.deep.equal(['ToolError', 'tool "fail" failed: upstream 503', true])
      const sync: HostTool = () => { throw new TypeError('bad arg') }
      const uncaught = expectError(await run('\nawait tools.sync(1)', {}, { sync }), 'ToolError')
      expect(uncaught.message).to.equal('tool "sync" failed: bad arg')
    })

    it('rejects an unknown tool with a TypeError listing the tools', async () => {
      const o = await run('try { await tools.serach({}) } catch (e) { return [e.name, e.message] }')
      expect(expectOk(o)).to.deep.equal(['TypeError', 'Unknown tool "serach". Available tools: echo, add, fail, nothing'])
    })

    it('passes a 1 MiB string from one tool output to another tool input intact', async () => {
      const big = 'aé😀\u0000"\\'.repeat(MiB / 8).slice(0, MiB)
      let received: unknown
      const source: HostTool = async () => ({ text: big })
      const sink: HostTool = async (input) => {
        received = input
        return (input as { text: string }).text.length
      }
      const o = await run('const { text } = await tools.source(); return await tools.sink({ text })', { memoryLimitBytes: 64 * MiB }, { source, sink })
      expect(expectOk(o)).to.equal(big.length)
      expect((received as { text: string }).text === big).to.equal(true)
    })

    it('captures console output and bounds it', async () => {
      const o = await run('console.log("hi", { a: 1 }, [2], null); console.info(3); console.warn("careful"); console.error(new TypeError("bad")); return 1')
      expect(o.logs).to.deep.equal(['hi {"a":1} [2] null', '3', '[warn] careful', '[error] TypeError: bad'])
      const bounded = await run('for (let i = 0; i < 1000; i++) console.log("line " + i); return "done"', { maxLogBytes: 100 })
      expect(expectOk(bounded)).to.equal('done')
      const text = bounded.logs.slice(0, -1).join('')
      expect(Buffer.byteLength(text)).to.be.at.most(100)
      expect(bounded.logs.at(-1)).to.equal('[logs truncated: over 100 bytes]')
    })

    it('reports the name, message and line of an uncaught error', async () => {
      const e = expectError(await run('const a = 1\n\nfunction f() {\n  throw new RangeError("nope " + a)\n}\nf()'), 'RangeError')
      expect(e.message).to.equal('nope 1')
      expect(e.line).to.equal(4)
      const custom = expectError(await run('class MyErr extends Error { constructor(m) { super(m); this.name = "MyErr" } }\nthrow new MyErr("bad input")'), 'MyErr')
      expect(custom.message).to.equal('bad input')
      expect(expectError(await run('\nthrow { code: 7 }'), 'Error').message).to.equal('{"code":7}')
      expect(expectError(await run('throw "boom"'), 'Error').message).to.equal('Uncaught boom')
      const syntax = expectError(await run('const x = 1\nreturn x +* 2'), 'SyntaxError')
      expect(syntax.line).to.equal(2)
    })

    it('rejects a result that is not JSON', async () => {
      for (const code of ['return () => 1', 'return { n: 1n }', 'const a = {}; a.a = a; return a']) {
        expectError(await run(code), 'ResultNotSerializable')
      }
    })
  })

  describe('limits', () => {
    it('stops a busy loop at the deadline (TimeoutError), even if it catches', async () => {
      const o = await run('for (;;) { try { for (;;) {} } catch (e) {} }', { timeoutMs: 500 })
      expectError(o, 'TimeoutError')
      expect(o.stats.wallMs).to.be.within(450, 1500)
      await expectHealthy()
    })

    it('ends a program awaiting a promise that nothing settles by the deadline', async () => {
      const o = await run('await new Promise(() => {})', { timeoutMs: 500 })
      expectError(o, 'DeadlockError')
      expect(o.stats.wallMs).to.be.below(500)
      await expectHealthy()
    })

    it('times out a program awaiting a slow tool and aborts the tool', async () => {
      let aborted = false
      const hang: HostTool = (_input, { signal }) => new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => { aborted = true; reject(signal.reason) })
      })
      const o = await run('await tools.hang()', { timeoutMs: 500 }, { hang })
      expectError(o, 'TimeoutError')
      expect(o.stats.wallMs).to.be.within(450, 1500)
      expect(aborted).to.equal(true)
      await expectHealthy()
    })

    it('stops an allocation bomb (MemoryLimitError)', async () => {
      const o = await run('const a = []; for (;;) a.push("x".repeat(1000) + a.length)', { memoryLimitBytes: 24 * MiB })
      expectError(o, 'MemoryLimitError')
      expect(o.stats.peakMemoryBytes).to.be.at.most(24 * MiB)
      await expectHealthy()
    })

    it('turns deep recursion and deep JSON nesting into StackOverflowError', async () => {
      expectError(await run('function f(n) { return f(n + 1) + 1 }\nreturn f(0)'), 'StackOverflowError')
      expectError(await run('return JSON.parse("[".repeat(100000) + "]".repeat(100000))'), 'StackOverflowError')
      expectError(await run('return eval("(".repeat(100000) + "1" + ")".repeat(100000))'), 'StackOverflowError')
      expect(expectOk(await run('function f(n) { return n ? f(n - 1) + 1 : 0 }\nreturn f(3000)'))).to.equal(3000)
      await expectHealthy()
    })

    it('ends the program on too many tool calls, even if it catches (ToolCallLimitError)', async () => {
      const o = await run('for (let i = 0; i < 10; i++) { try { await tools.echo(i) } catch (e) {} }\nreturn "survived"', { maxToolCalls: 5 })
      expectError(o, 'ToolCallLimitError')
      expect(o.stats.toolCalls).to.equal(5)
      await expectHealthy()
    })

    it('ends the program on an oversized tool input, even if it catches (InputTooLarge), without calling the tool', async () => {
      let called = false
      const spy: HostTool = async () => { called = true }
      const o = await run('try { await tools.spy("x".repeat(2000)) } catch (e) {} return "went on"', { maxToolInputBytes: 1000 }, { spy })
      expect(expectError(o, 'InputTooLarge').message).to.equal('tool "spy" input is 2002 bytes of JSON; the limit is 1000')
      expect(called).to.equal(false)
      await expectHealthy()
    })

    it('ends the program on an oversized tool output, even if it catches (OutputTooLarge)', async () => {
      const big: HostTool = async () => 'é'.repeat(600)
      const o = await run('try { await tools.big() } catch (e) {} return "went on"', { maxToolOutputBytes: 1000 }, { big })
      expect(expectError(o, 'OutputTooLarge').message).to.equal('tool "big" output is 1202 bytes of JSON; the limit is 1000')
      await expectHealthy()
    })

    it('rejects an oversized result (ResultTooLarge)', async () => {
      const e = expectError(await run('return "x".repeat(2000)', { maxResultBytes: 1000 }), 'ResultTooLarge')
      expect(e.message).to.equal('the returned value is 2002 bytes of JSON; the limit is 1000')
      await expectHealthy()
    })

    it('kills a native operation that overruns the deadline (watchdog)', async () => {
      const code = 'const s = JSON.stringify(Array.from({ length: 100000 }, (_, i) => ({ i, s: "abcdefgh" })))\nfor (;;) JSON.parse(s)'
      const o = await run(code, { timeoutMs: 700, memoryLimitBytes: 128 * MiB })
      const e = expectError(o, 'TimeoutError')
      expect(e.message).to.match(/watchdog/)
      expect(o.stats.wallMs).to.be.below(700 + WATCHDOG_GRACE_MS + 500)
      await expectHealthy()
    })

    it('stops a program when the host aborts it', async () => {
      const ac = new AbortController()
      setTimeout(() => ac.abort(), 200)
      const o = await run('for (;;) {}', { timeoutMs: 5000 }, {}, ac.signal)
      expectError(o, 'AbortError')
      expect(o.stats.wallMs).to.be.below(1000)
      await expectHealthy()
    })

    it('keeps its deadline while fake timers are installed', async () => {
      // the real timers, captured before the fakes go in
      const own = new Sandbox({ clock: captureClock() })
      await own.warmUp()
      const clock = FakeTimers.install()
      try {
        const o = await run('for (;;) {}', { timeoutMs: 300 }, {}, undefined, own)
        expectError(o, 'TimeoutError')
        expect(o.stats.wallMs).to.be.within(250, 1500)
      } finally {
        clock.uninstall()
        await own.shutdown()
      }
    })
  })

  describe('containment', () => {
    it('has no host globals', async () => {
      const o = await run(`return {
        types: [typeof require, typeof process, typeof fetch, typeof setTimeout, typeof WebAssembly, typeof module, typeof Buffer],
        extra: Object.getOwnPropertyNames(globalThis).filter((k) => !${JSON.stringify(STANDARD_GLOBALS)}.includes(k)).sort(),
      }`)
      expect(expectOk(o)).to.deep.equal({ types: Array(7).fill('undefined'), extra: ['console', 'tools'] })
    })

    it('keeps Function and constructor tricks inside the sandbox', async () => {
      const o = await run(`
        const g = Function('return this')()
        let viaConstructor
        try { viaConstructor = this.constructor.constructor('return process')() } catch (e) { viaConstructor = e.name }
        return { same: g === globalThis, hasTools: typeof g.tools, process: typeof g.process, viaConstructor }`)
      expect(expectOk(o)).to.deep.equal({ same: true, hasTools: 'object', process: 'undefined', viaConstructor: 'ReferenceError' })
    })

    it('does not let prototype pollution reach the host', async () => {
      const o = await run('Object.prototype.x = 1; Array.prototype.y = 2; return { a: [1], b: JSON.parse(\'{"__proto__": {"x": 3}}\') }')
      const value = expectOk(o) as Record<string, unknown>
      expect(({} as Record<string, unknown>).x).to.equal(undefined)
      expect(([] as unknown as Record<string, unknown>).y).to.equal(undefined)
      expect(Object.getPrototypeOf(value)).to.equal(Object.prototype)
      expect(Object.keys(value)).to.deep.equal(['a', 'b'])
      expect(value.x).to.equal(undefined)
      expect((value.b as Record<string, unknown>).x).to.equal(undefined)
      // state does not survive into the next program
      expect(expectOk(await run('return [({}).x, typeof globalThis.secret]'))).to.deep.equal([null, 'undefined'])
    })
  })

  describe('instances', () => {
    it('keeps two Sandbox instances independent: shutting one down leaves the other running', async () => {
      const a = new Sandbox()
      const b = new Sandbox()
      try {
        let open: ((v: unknown) => void) | undefined
        const gate: HostTool = () => new Promise((resolve) => { open = resolve })
        const onB = run('const x = await tools.gate()\nreturn x + 1', {}, { gate }, undefined, b)
        expect(expectOk(await run('return 1', {}, {}, undefined, a))).to.equal(1)
        await until(() => open !== undefined)
        await a.shutdown()
        expect(a.workerCount).to.equal(0)
        expect(b.workerCount).to.equal(1)
        open!(41)
        expect(expectOk(await onB)).to.equal(42)
        // a shut-down sandbox starts workers again for the next program
        expect(expectOk(await run('return 2', {}, {}, undefined, a))).to.equal(2)
      } finally {
        await Promise.all([a.shutdown(), b.shutdown()])
      }
    })

    it('leaves no worker thread after shutdown(); a program running then ends with SandboxError', async () => {
      const s = new Sandbox()
      const ports = () => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length
      const before = ports()
      let started = 0
      const hang: HostTool = () => { started++; return new Promise(() => {}) }
      const running = [1, 2, 3].map(() => run('await tools.hang()', { timeoutMs: 10000 }, { hang }, undefined, s))
      await until(() => started === 3)
      expect(s.workerCount).to.equal(3)
      expect(ports()).to.equal(before + 3)
      await s.shutdown()
      expect(s.workerCount).to.equal(0)
      expect(ports()).to.equal(before)
      for (const o of await Promise.all(running)) expect(expectError(o, 'SandboxError').message).to.equal('the sandbox was shut down')
    })
  })
})
