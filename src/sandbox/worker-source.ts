// The sandbox worker, kept as plain CommonJS text and started with `new Worker(src, { eval: true })`.
// A string loads the same way from the TypeScript sources (esbuild-register) and from the
// esbuild bundle (lib/index.js): no extra file to copy, no loader hooks inside the worker.
// Its dependencies are required by absolute paths that the host resolves (workerData).
//
// Protocol (arrays, cheap to clone):
//   host -> worker  ['run', id, code, toolNamesJson, limits] | ['res', id, [callId, kind, payload, ...]] | ['abort', id]
//   worker -> host  ['ready'] | ['calls', id, [callId, name, inputJson, ...], newLogs]
//                   | ['done', id, result, newLogs, toolCalls, memoryBytes]
// flags (shared Int32Array): [0] is bumped by the host after every post so the worker can spin
// on it instead of sleeping (a futex/epoll wake costs ~20 µs here); [1] holds a run id the host
// wants stopped, polled by the interrupt handler so even a busy guest stops at once.
export const WORKER_SOURCE = String.raw`'use strict'
const { parentPort, workerData, receiveMessageOnPort } = require('worker_threads')
const core = require(workerData.corePath)
const variantExports = require(workerData.variantPath)
const baseVariant = variantExports.default || variantExports
const { wasmModule, prelude: PRELUDE, spinMs: SPIN_MS, stackBytes: STACK_BYTES } = workerData
const flags = new Int32Array(workerData.flags)
const PAGE = 65536
const INITIAL_PAGES = 256
const NEAR_CAP = 1 << 20
const MAX_TEXT = 4096
const now = () => performance.now()
const quiet = { print () {}, printErr () {} }

// ---- one fresh wasm instance (and Memory with a fixed maximum) per program; the next one is
// prepared while idle. Instances are dropped, never disposed: nothing can leak or abort.
let spare = null
function instantiate (pages) {
  const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: pages })
  const variant = core.newVariant(baseVariant, { wasmModule, wasmMemory: memory, emscriptenModule: quiet })
  return core.newQuickJSWASMModuleFromVariant(variant).then((mod) => {
    const rt = mod.newRuntime()
    return { mod, memory, rt, ctx: rt.newContext() }
  })
}
function take (pages) {
  const s = spare
  spare = null
  return s && s.pages === pages ? s.promise : instantiate(pages)
}
function prepare (pages) {
  const s = { pages, promise: instantiate(pages) }
  s.promise.catch(() => { if (spare === s) spare = null })
  spare = s
  return s.promise
}

// ---- errors
const err = (name, message) => ({ name, message })
const clip = (s) => s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) + '…' : s
const errorMessage = (e) => { try { return String(e && e.message !== undefined ? e.message : e) } catch (x) { return 'unknown error' } }
function stopError (r) {
  if (r.stop === 'abort') return err('AbortError', 'the program was aborted by the host')
  if (r.stop === 'calls') return err('ToolCallLimitError', 'the program made more than ' + r.lim.maxToolCalls + ' tool calls')
  return err('TimeoutError', 'the program exceeded its time limit of ' + r.lim.timeoutMs + ' ms')
}
const nearCap = (r) => r.inst !== null && r.inst.memory.buffer.byteLength >= r.lim.pages * PAGE - NEAR_CAP
const memoryError = (r) => err('MemoryLimitError', 'the program ran out of memory (limit ' + r.lim.pages * PAGE + ' bytes)')
const stackError = () => err('StackOverflowError', 'maximum call stack size exceeded (recursion or nesting too deep)')
// A host exception out of a VM call: V8's own stack overflowing through the wasm frames,
// a wasm trap, or a bug. The instance is dropped either way.
function hostError (r, e) {
  if (r.stop) return stopError(r)
  if (e instanceof OutOfMemory) return memoryError(r)
  if (e instanceof RangeError && /call stack/i.test(e.message)) return stackError()
  if (nearCap(r)) return memoryError(r)
  return err('SandboxError', 'internal sandbox failure: ' + clip(errorMessage(e)))
}
function cleanStack (stack) {
  // drop prelude frames and the wrapper's own call frame
  return stack.split('\n').filter((l) => l.trim() && !l.includes('sandbox.js') && !l.includes('<eval> (program.js')).join('\n')
}
// Turn a thrown guest value into { name, message, line?, stack? }.
function classify (r, h) {
  if (r.stop) return stopError(r)
  const ctx = r.inst.ctx
  let d = null
  try {
    const t = ctx.typeof(h)
    // At the cap QuickJS may not manage to allocate the error object and throws null
    if (t !== 'object' && t !== 'function' && nearCap(r)) return memoryError(r)
    const res = ctx.callFunction(r.describe, ctx.undefined, h)
    if (res.error) res.error.dispose()
    else { d = JSON.parse(ctx.getString(res.value)); res.value.dispose() }
  } catch (e) { return hostError(r, e) }
  if (r.stop) return stopError(r)
  if (d === null) return nearCap(r) ? memoryError(r) : err('Error', 'the program threw a value that could not be described')
  if (d.name === 'InternalError' && d.message === 'out of memory') return memoryError(r)
  // bellard: InternalError (SyntaxError from JSON.parse) 'stack overflow'; quickjs-ng: RangeError
  if (d.message === 'stack overflow' || (d.name === 'RangeError' && /call stack/i.test(d.message))) return stackError()
  const out = err(clip(d.name), clip(d.message))
  if (d.stack) {
    const stack = cleanStack(d.stack)
    const m = /program\.js:(\d+)/.exec(stack)
    if (m) out.line = Number(m[1])
    if (stack) out.stack = clip(stack)
  }
  return out
}

// ---- the current run
let R = null

async function start (msg) {
  const lim = msg[4]
  const r = R = {
    id: msg[1], lim, finished: false, ready: false, stop: null, inst: null,
    deadline: now() + lim.timeoutMs, timer: null, calls: 0, inflight: 0, names: [], outbox: [],
    logs: [], logsSent: 0, logBytes: 0, logsFull: false, main: null, take: null, settle: null, serialize: null, describe: null,
  }
  r.timer = setTimeout(() => { if (!r.finished) { r.stop = r.stop || 'timeout'; finish(r, stopError(r)) } }, lim.timeoutMs)
  let inst
  try { inst = await take(lim.pages) } catch (e) { return finish(r, err('SandboxError', 'could not start QuickJS: ' + clip(errorMessage(e)))) }
  if (r.finished) return
  r.inst = inst
  try { setup(r, msg[2], msg[3]) } catch (e) { return finish(r, hostError(r, e)) }
  if (r.finished) return
  r.ready = true
  drive(r)
}

function setup (r, code, namesJson) {
  const { rt, ctx } = r.inst
  rt.setMaxStackSize(STACK_BYTES)
  rt.setInterruptHandler(() => {
    if (r.stop) return true
    if (Atomics.load(flags, 1) === r.id) { r.stop = 'abort'; return true }
    if (now() > r.deadline) { r.stop = 'timeout'; return true }
    return false
  })
  r.names = JSON.parse(namesJson)
  const hostLog = ctx.newFunction('hostLog', (l, t) => onHostLog(r, l, t))
  // Not catchable: the interrupt handler ends the program at its next poll, pump() right after the slice
  const hostFatal = ctx.newFunction('hostFatal', () => { r.stop = r.stop || 'calls' })
  const fn = ctx.unwrapResult(ctx.evalCode(PRELUDE, 'sandbox.js'))
  const helpers = ctx.unwrapResult(ctx.callFunction(fn, ctx.undefined, hostLog, hostFatal, ctx.newString(namesJson), ctx.newNumber(r.lim.maxToolCalls)))
  r.take = ctx.getProp(helpers, 'take')
  r.settle = ctx.getProp(helpers, 'settle')
  r.serialize = ctx.getProp(helpers, 'serialize')
  r.describe = ctx.getProp(helpers, 'describe')
  // '{' stays on line 1 so error lines match the user's code
  const res = ctx.evalCode('(async () => {' + code + '\n})()', 'program.js')
  if (res.error) return finish(r, classify(r, res.error))
  r.main = res.value
}

function onHostLog (r, levelH, textH) {
  const ctx = r.inst.ctx
  if (r.logsFull) return ctx.true
  const level = ctx.getNumber(levelH)
  let text = ctx.getString(textH)
  if (level === 1) text = '[warn] ' + text
  else if (level === 2) text = '[error] ' + text
  const max = r.lim.maxLogBytes
  const room = max - r.logBytes
  const bytes = Buffer.byteLength(text)
  if (bytes <= room) {
    r.logs.push(text)
    r.logBytes += bytes
    return ctx.false
  }
  if (room > 0) {
    const buf = Buffer.from(text)
    let cut = room
    while (cut > 0 && (buf[cut] & 0xc0) === 0x80) cut-- // don't split a UTF-8 sequence
    if (cut > 0) r.logs.push(buf.subarray(0, cut).toString())
  }
  r.logs.push('[logs truncated: over ' + max + ' bytes]')
  r.logBytes = max
  r.logsFull = true
  return ctx.true
}

function newLogs (r) {
  if (r.logsSent === r.logs.length) return null
  const out = r.logs.slice(r.logsSent)
  r.logsSent = r.logs.length
  return out
}

// emscripten's malloc returns 0 once the capped memory is full, and newString would then write
// at address 0: probe big strings first so a full memory becomes a clean MemoryLimitError.
class OutOfMemory extends Error {}
function newString (r, s) {
  if (s.length > 4096) {
    const em = r.inst.mod.module
    // room for the UTF-8 copy and the JSString made from it
    const p = em._malloc(Buffer.byteLength(s) + 2 * s.length + 64)
    if (!p) throw new OutOfMemory('out of memory')
    em._free(p)
  }
  return r.inst.ctx.newString(s)
}

// Settle one guest promise: an output JSON string (null for undefined), or an error [name, message]
function settleOne (r, id, kind, payload) {
  const ctx = r.inst.ctx
  const idH = ctx.newNumber(id)
  let a, b
  if (kind === 0) a = payload === null ? ctx.undefined : newString(r, payload)
  else { a = ctx.newString(payload[1]); b = ctx.newString(payload[0]) }
  const res = b === undefined ? ctx.callFunction(r.settle, ctx.undefined, idH, a) : ctx.callFunction(r.settle, ctx.undefined, idH, a, b)
  idH.dispose(); a.dispose(); if (b !== undefined) b.dispose()
  if (res.error) throw new GuestFailure(res.error)
  res.value.dispose()
}
class GuestFailure extends Error { constructor (h) { super('guest failure'); this.handle = h } }

function settle (r, flat) {
  try {
    for (let i = 0; i < flat.length; i += 3) {
      if (r.finished) return
      r.inflight--
      settleOne(r, flat[i], flat[i + 1], flat[i + 2])
    }
  } catch (e) {
    finish(r, e instanceof GuestFailure ? classify(r, e.handle) : hostError(r, e))
  }
}

// Move the calls queued by the guest to the outbox. Returns true if some were settled here
// (input over its cap) so their jobs must run before the next look at the queue.
function takeCalls (r) {
  const ctx = r.inst.ctx
  const res = ctx.callFunction(r.take, ctx.undefined)
  if (res.error) throw new GuestFailure(res.error)
  const q = ctx.getString(res.value)
  res.value.dispose()
  let local = false, p = 0
  const max = r.lim.maxToolInputBytes
  while (p < q.length) {
    const a = q.indexOf(',', p), b = q.indexOf(',', a + 1), c = q.indexOf(';', b + 1)
    const id = +q.slice(p, a), index = +q.slice(a + 1, b), len = +q.slice(b + 1, c)
    const name = r.names[index]
    if (a < 0 || b < 0 || c < 0 || !(id > 0) || name === undefined || !(len >= 0) || c + 1 + len > q.length) throw new Error('malformed tool call queue')
    const json = len === 0 ? null : q.substr(c + 1, len)
    p = c + 1 + len
    if (++r.calls > r.lim.maxToolCalls) { r.stop = r.stop || 'calls'; return false }
    if (json !== null && json.length * 3 > max) {
      const bytes = Buffer.byteLength(json)
      if (bytes > max) {
        settleOne(r, id, 1, ['InputTooLarge', 'tool "' + name + '" input is ' + bytes + ' bytes of JSON; the limit is ' + max])
        local = true
        continue
      }
    }
    r.inflight++
    r.outbox.push(id, name, json)
  }
  return local
}

// Run every pending job, then either finish or hand the new tool calls to the host.
function pump (r) {
  if (r.finished) return
  const { rt, ctx } = r.inst
  try {
    for (;;) {
      const jobs = rt.executePendingJobs()
      if (jobs.error) return finish(r, classify(r, jobs.error))
      if (r.stop || now() > r.deadline) { r.stop = r.stop || 'timeout'; return finish(r, stopError(r)) }
      const st = ctx.getPromiseState(r.main)
      if (st.type === 'rejected') return finish(r, classify(r, st.error))
      if (st.type === 'fulfilled') return complete(r, st.value)
      if (!takeCalls(r)) break
    }
  } catch (e) {
    return finish(r, e instanceof GuestFailure ? classify(r, e.handle) : hostError(r, e))
  }
  if (r.stop) return finish(r, stopError(r))
  if (r.outbox.length) {
    parentPort.postMessage(['calls', r.id, r.outbox, newLogs(r)])
    r.outbox = []
  }
  if (r.inflight === 0) finish(r, err('DeadlockError', 'the program is awaiting a promise that nothing can settle (no tool call is in flight)'))
}

function complete (r, vh) {
  const ctx = r.inst.ctx
  let json = null
  try {
    const res = ctx.callFunction(r.serialize, ctx.undefined, vh)
    if (res.error) {
      const e = classify(r, res.error)
      if (/^(TimeoutError|AbortError|ToolCallLimitError|MemoryLimitError|StackOverflowError|SandboxError)$/.test(e.name)) return finish(r, e)
      return finish(r, err('ResultNotSerializable', 'the returned value is not JSON-serializable: ' + e.message))
    }
    if (r.stop) return finish(r, stopError(r))
    if (ctx.typeof(res.value) === 'string') json = ctx.getString(res.value)
  } catch (e) { return finish(r, hostError(r, e)) }
  const max = r.lim.maxResultBytes
  if (json !== null && json.length > max / 3) {
    const bytes = Buffer.byteLength(json)
    if (bytes > max) return finish(r, err('ResultTooLarge', 'the returned value is ' + bytes + ' bytes of JSON; the limit is ' + max))
  }
  finish(r, { json })
}

function finish (r, result) {
  if (r.finished) return
  r.finished = true
  clearTimeout(r.timer)
  const memoryBytes = r.inst ? r.inst.memory.buffer.byteLength : null
  r.inst = null
  if (R === r) R = null
  parentPort.postMessage(['done', r.id, result, newLogs(r), r.calls, memoryBytes])
  prepare(r.lim.pages).catch(() => {})
}

// ---- driving: after handing calls to the host, spin briefly for the answer; fall back to the
// event loop when the tools are slow.
function drainSync () {
  let n = 0, m
  while ((m = receiveMessageOnPort(parentPort)) !== undefined) { n++; apply(m.message) }
  return n
}
function waitBriefly () {
  const until = now() + SPIN_MS
  let seen = -1
  do {
    const f = Atomics.load(flags, 0)
    if (f !== seen) { seen = f; if (drainSync() > 0) return true }
  } while (now() < until)
  return false
}
function drive (r) {
  for (;;) {
    pump(r)
    if (r.finished || r.inflight === 0) return
    if (!waitBriefly()) return
    if (R !== r) return
  }
}

function apply (m) {
  if (m[0] === 'run') {
    start(m).catch((e) => { if (R !== null) finish(R, err('SandboxError', 'internal sandbox failure: ' + clip(errorMessage(e)))) })
    return
  }
  const r = R
  if (r === null || r.id !== m[1] || r.finished) return
  if (m[0] === 'res') settle(r, m[2])
  else if (m[0] === 'abort') { r.stop = 'abort'; finish(r, stopError(r)) }
}

parentPort.on('message', (m) => {
  try {
    apply(m)
    const r = R
    if (r !== null && r.ready && !r.finished) drive(r)
  } catch (e) {
    if (R !== null) finish(R, err('SandboxError', 'internal sandbox failure: ' + clip(errorMessage(e))))
  }
})

// Run a throwaway program through the same paths once, so the first real program doesn't pay
// for wasm tier-up and JIT warm-up (~10 ms). Only for workers started ahead of need.
async function warmUp () {
  const { rt, ctx } = await instantiate(INITIAL_PAGES * 2)
  const log = ctx.newFunction('hostLog', () => ctx.false)
  const fatal = ctx.newFunction('hostFatal', () => {})
  const fn = ctx.unwrapResult(ctx.evalCode(PRELUDE, 'sandbox.js'))
  const helpers = ctx.unwrapResult(ctx.callFunction(fn, ctx.undefined, log, fatal, ctx.newString('["t"]'), ctx.newNumber(1000)))
  const take = ctx.getProp(helpers, 'take')
  const settle = ctx.getProp(helpers, 'settle')
  const serialize = ctx.getProp(helpers, 'serialize')
  const main = ctx.unwrapResult(ctx.evalCode('(async () => { let s = 0\nfor (let i = 0; i < 30; i++) s += (await tools.t({ i })).i\nconst all = await Promise.all([1, 2, 3].map((i) => tools.t(i)))\nconsole.log(s, all)\nreturn { s, all }\n})()', 'program.js'))
  for (let k = 0; k < 100; k++) {
    rt.executePendingJobs()
    if (ctx.getPromiseState(main).type !== 'pending') break
    const q = ctx.getString(ctx.unwrapResult(ctx.callFunction(take, ctx.undefined)))
    for (let p = 0; p < q.length;) {
      const a = q.indexOf(',', p), b = q.indexOf(',', a + 1), c = q.indexOf(';', b + 1)
      const len = +q.slice(b + 1, c)
      ctx.callFunction(settle, ctx.undefined, ctx.newNumber(+q.slice(p, a)), ctx.newString(q.substr(c + 1, len)))
      p = c + 1 + len
    }
  }
  const st = ctx.getPromiseState(main)
  if (st.type === 'fulfilled') ctx.getString(ctx.unwrapResult(ctx.callFunction(serialize, ctx.undefined, st.value)))
}

(workerData.warm ? warmUp() : Promise.resolve()).catch(() => {}).then(() => prepare(workerData.pages)).then(
  () => parentPort.postMessage(['ready']),
  (e) => parentPort.postMessage(['ready', errorMessage(e)]),
)
`
