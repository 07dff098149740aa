// The sandbox worker thread (SPEC §8): runs one program at a time for pool.ts, each in a fresh
// QuickJS instance, and proxies its tool calls to the host (protocol.ts). Built to
// lib/sandbox-worker.js beside the bundle; from the TypeScript sources dev-worker.ts bundles it in memory.
import { parentPort as port, receiveMessageOnPort, workerData } from 'node:worker_threads'
import type { FlatCalls, FlatReplies, HostMessage, WorkerData, WorkerMessage } from '../protocol'
import { FLAG_POSTED } from '../protocol'
import { INITIAL_PAGES, prepare, useWasm } from './instance'
import { clip, err, errorMessage } from './errors'
import { now, Program, type WorkerEnv } from './program'

const parentPort = port!
const data = workerData as WorkerData
const flags = new Int32Array(data.flags)
const SPIN_MS = data.spinMs
useWasm(data.wasmModule)

/** The program running now, if any. */
let current: Program | null = null

const env: WorkerEnv = {
  flags,
  modules: data.modules,
  stackBytes: data.stackBytes,
  post: (m: WorkerMessage) => parentPort.postMessage(m),
  ended(p) {
    if (current === p) current = null
    prepare(p.lim.pages).catch(() => {})
  },
}

const internalFailure = (e: unknown) => {
  if (current !== null) current.finish(err('SandboxError', 'internal sandbox failure: ' + clip(errorMessage(e))))
}

// ---- driving: after handing calls to the host, spin briefly for the answer; fall back to the
// event loop when the tools are slow.
function drainSync(): number {
  let n = 0
  let m
  while ((m = receiveMessageOnPort(parentPort)) !== undefined) {
    n++
    apply(m.message)
  }
  return n
}

function waitBriefly(): boolean {
  const until = now() + SPIN_MS
  let seen = -1
  do {
    const f = Atomics.load(flags, FLAG_POSTED)
    if (f !== seen) {
      seen = f
      if (drainSync() > 0) return true
    }
  } while (now() < until)
  return false
}

function drive(p: Program) {
  for (;;) {
    p.pump()
    if (p.finished || p.inflight === 0) return
    if (!waitBriefly()) return
    if (current !== p) return
  }
}

function apply(m: HostMessage) {
  if (m[0] === 'run') {
    const p = current = new Program(m[1], m[4], env)
    p.start(m[2], m[3]).then(() => { if (p.ready && !p.finished) drive(p) }).catch(internalFailure)
    return
  }
  const p = current
  if (p === null || p.id !== m[1] || p.finished) return
  if (m[0] === 'res') p.settle(m[2])
  else if (m[0] === 'abort') p.abort()
}

parentPort.on('message', (m: HostMessage) => {
  try {
    apply(m)
    const p = current
    if (p !== null && p.ready && !p.finished) drive(p)
  } catch (e) {
    internalFailure(e)
  }
})

// Run a throwaway program through the same paths once, so the first real program doesn't pay
// for wasm tier-up and JIT warm-up (~10 ms). Only for workers started ahead of need. Its tool
// calls are answered here, at once, with their input.
const WARM_UP = 'let s = 0\nfor (let i = 0; i < 30; i++) s += (await tools.t({ i })).i\n' +
  'const all = await Promise.all([1, 2, 3].map((i) => tools.t(i)))\nconsole.log(s, all)\nreturn { s, all }'

async function warmUp() {
  let calls: FlatCalls = []
  const local: WorkerEnv = { flags: new Int32Array(3), stackBytes: data.stackBytes, post: (m) => { if (m[0] === 'calls') calls = m[2] }, ended() {} }
  const limits = { timeoutMs: 5000, pages: INITIAL_PAGES * 2, maxToolCalls: 100, maxToolInputBytes: 1 << 16, maxResultBytes: 1 << 16, maxLogBytes: 1 << 16 }
  // run id -1: never the id in the interrupt flag
  const p = new Program(-1, limits, local)
  await p.start(WARM_UP, '["t"]')
  for (let k = 0; k < 100 && p.ready && !p.finished; k++) {
    p.pump()
    const replies: FlatReplies = []
    for (let i = 0; i < calls.length; i += 3) replies.push(calls[i], 0, calls[i + 2])
    calls = []
    p.settle(replies)
  }
  if (!p.finished) p.abort()
}

(data.warm ? warmUp() : Promise.resolve()).catch(() => {}).then(() => prepare(data.pages)).then(
  () => parentPort.postMessage(['ready'] satisfies WorkerMessage),
  (e) => parentPort.postMessage(['ready', errorMessage(e)] satisfies WorkerMessage),
)
