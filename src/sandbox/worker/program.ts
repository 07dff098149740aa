// One program in the worker: its fresh QuickJS instance, the prelude's helpers, the job loop
// (pump), the tool-call queue handed to the host, console capture, and how it finishes.
import type { MessagePort } from 'node:worker_threads'
import type { DisposableSuccess, QuickJSHandle } from 'quickjs-emscripten-core'
import type { WorkerLimits } from '../limits'
import type { FlatCalls, FlatReplies, RunResult, WorkerMessage } from '../protocol'
import { FLAG_INTERRUPT } from '../protocol'
import { take, type Instance } from './instance'
import { Vm } from './vm'
import { installModules } from './modules'
import { classify, clip, err, errorMessage, failure, hostError, OutOfMemory, stopError, type RunState, type StopReason } from './errors'

export const now = () => performance.now()

const COMMA = 44
const SEMICOLON = 59
/** Where the last decimal() stopped: the index of its separator. */
let end = 0

/** The decimal number in q from `from` up to the separator char `stop`, or -1 if there is none. */
function decimal(q: string, from: number, stop: number): number {
  let n = 0
  let i = from
  for (; i < q.length; i++) {
    const c = q.charCodeAt(i)
    if (c === stop) break
    if (c < 48 || c > 57) return -1
    n = n * 10 + c - 48
  }
  if (i === from || i === q.length) return -1
  end = i
  return n
}

/** What a program needs from the worker around it. */
export interface WorkerEnv {
  flags: Int32Array
  stackBytes: number
  /** the port module texts come back on; absent: no imports */
  modules?: MessagePort
  post(m: WorkerMessage): void
  /** Called once, after the program's 'done' was posted. */
  ended(p: Program): void
}

export class Program implements RunState {
  finished = false
  /** Set up and waiting for tool results (or running). */
  ready = false
  stop: StopReason | null = null
  inputError?: string
  inst: Instance | null = null
  /** Tool calls made, counted against maxToolCalls. */
  calls = 0
  /** Calls handed to the host and not settled yet. */
  inflight = 0
  describe: QuickJSHandle | null = null
  private vm: Vm | null = null
  private readonly deadline: number
  private readonly timer: ReturnType<typeof setTimeout>
  private names: string[] = []
  private outbox: FlatCalls = []
  private logs: string[] = []
  private logsSent = 0
  private logBytes = 0
  private logsFull = false
  private main: QuickJSHandle | null = null
  private takeFn: QuickJSHandle | null = null
  private settleFn: QuickJSHandle | null = null
  private serializeFn: QuickJSHandle | null = null

  constructor(readonly id: number, readonly lim: WorkerLimits, private readonly env: WorkerEnv) {
    this.deadline = now() + lim.timeoutMs
    this.timer = setTimeout(() => {
      if (this.finished) return
      this.stop ??= 'timeout'
      this.finish(stopError(this))
    }, lim.timeoutMs)
  }

  async start(code: string, namesJson: string) {
    let inst: Instance
    try {
      inst = await take(this.lim.pages)
    } catch (e) {
      return this.finish(err('SandboxError', 'could not start QuickJS: ' + clip(errorMessage(e))))
    }
    if (this.finished) return
    this.inst = inst
    try {
      this.setup(code, namesJson)
    } catch (e) {
      return this.finish(hostError(this, e))
    }
    if (this.finished) return
    this.ready = true
  }

  private setup(code: string, namesJson: string) {
    const { rt, ctx } = this.inst!
    const flags = this.env.flags
    rt.setMaxStackSize(this.env.stackBytes)
    rt.setInterruptHandler(() => {
      if (this.stop) return true
      if (Atomics.load(flags, FLAG_INTERRUPT) === this.id) { this.stop = 'abort'; return true }
      if (now() > this.deadline) { this.stop = 'timeout'; return true }
      return false
    })
    this.names = JSON.parse(namesJson)
    const stopped = () => !!this.stop || Atomics.load(flags, FLAG_INTERRUPT) === this.id
    installModules(rt, { id: this.id, timeLeft: () => this.deadline - now(), stopped }, { port: this.env.modules, flags, post: this.env.post })
    const hostLog = ctx.newFunction('hostLog', (l, t) => this.onHostLog(l, t))
    // Not catchable: the interrupt handler ends the program at its next poll, pump() right after the slice
    const hostFatal = ctx.newFunction('hostFatal', () => { this.stop ??= 'calls' })
    const namesArg = ctx.newString(namesJson)
    const maxCallsArg = ctx.newNumber(this.lim.maxToolCalls)
    const helpers = ctx.unwrapResult(ctx.callFunction(this.inst!.prelude, ctx.undefined, hostLog, hostFatal, namesArg, maxCallsArg))
    this.takeFn = ctx.getProp(helpers, 'take')
    this.settleFn = ctx.getProp(helpers, 'settle')
    this.serializeFn = ctx.getProp(helpers, 'serialize')
    this.describe = ctx.getProp(helpers, 'describe')
    this.vm = new Vm(this.inst!)
    // '{' stays on line 1 so error lines match the user's code
    const res = ctx.evalCode('(async () => {' + code + '\n})()', 'program.js')
    if (res.error) return this.finish(classify(this, res.error))
    this.main = (res as DisposableSuccess<QuickJSHandle>).value
  }

  private onHostLog(levelH: QuickJSHandle, textH: QuickJSHandle) {
    const ctx = this.inst!.ctx
    if (this.logsFull) return ctx.true
    const level = ctx.getNumber(levelH)
    let text = ctx.getString(textH)
    if (level === 1) text = '[warn] ' + text
    else if (level === 2) text = '[error] ' + text
    const max = this.lim.maxLogBytes
    const room = max - this.logBytes
    const bytes = Buffer.byteLength(text)
    if (bytes <= room) {
      this.logs.push(text)
      this.logBytes += bytes
      return ctx.false
    }
    if (room > 0) {
      const buf = Buffer.from(text)
      let cut = room
      while (cut > 0 && (buf[cut] & 0xc0) === 0x80) cut-- // don't split a UTF-8 sequence
      if (cut > 0) this.logs.push(buf.subarray(0, cut).toString())
    }
    this.logs.push('[logs truncated: over ' + max + ' bytes]')
    this.logBytes = max
    this.logsFull = true
    return ctx.true
  }

  private newLogs(): string[] | null {
    if (this.logsSent === this.logs.length) return null
    const out = this.logs.slice(this.logsSent)
    this.logsSent = this.logs.length
    return out
  }

  /** Settle one guest promise: an output JSON string (null for undefined), or an error [name, message]. */
  private settleOne(id: number, kind: number, payload: unknown) {
    if (kind === 0) {
      const json = payload as string | null
      // emscripten's malloc returns 0 once the capped memory is full: probe for room for a big
      // string (its UTF-8 copy and the JSString made from it) so that is a clean MemoryLimitError
      if (json !== null && json.length > 4096) this.probe(Buffer.byteLength(json) + 2 * json.length + 64)
      this.vm!.callVoid(this.settleFn!, id, json ?? undefined)
    } else {
      const [name, message] = payload as [string, string]
      this.vm!.callVoid(this.settleFn!, id, message, name)
    }
  }

  private probe(bytes: number) {
    const heap = this.inst!.heap
    const p = heap._malloc(bytes)
    if (!p) throw new OutOfMemory('out of memory')
    heap._free(p)
  }

  /** Tool results from the host. */
  settle(flat: FlatReplies) {
    try {
      for (let i = 0; i < flat.length; i += 3) {
        if (this.finished) return
        this.inflight--
        this.settleOne(flat[i] as number, flat[i + 1] as number, flat[i + 2])
      }
    } catch (e) {
      this.finish(failure(this, e))
    }
  }

  // Move the calls queued by the guest (`id,toolIndex,length;inputJson` each) to the outbox; an
  // input over its cap stops the program instead.
  private takeCalls(): void {
    const q = this.vm!.callString(this.takeFn!)
    let p = 0
    const max = this.lim.maxToolInputBytes
    while (p < q.length) {
      const id = decimal(q, p, COMMA)
      const index = id < 0 ? -1 : decimal(q, end + 1, COMMA)
      const len = index < 0 ? -1 : decimal(q, end + 1, SEMICOLON)
      const c = end
      const name = this.names[index]
      if (!(id > 0) || name === undefined || len < 0 || c + 1 + len > q.length) throw new Error('malformed tool call queue')
      const json = len === 0 ? null : q.substr(c + 1, len)
      p = c + 1 + len
      if (++this.calls > this.lim.maxToolCalls) { this.stop ??= 'calls'; return }
      if (json !== null && json.length * 3 > max) {
        const bytes = Buffer.byteLength(json)
        if (bytes > max) {
          // a limit violation ends the program; it cannot be caught (SPEC §10)
          this.inputError = 'tool "' + name + '" input is ' + bytes + ' bytes of JSON; the limit is ' + max
          this.stop ??= 'input'
          return
        }
      }
      this.inflight++
      this.outbox.push(id, name, json)
    }
  }

  /** Run every pending job, then either finish or hand the new tool calls to the host. */
  pump() {
    if (this.finished) return
    const ctx = this.inst!.ctx
    const vm = this.vm!
    try {
      for (;;) {
        const error = vm.runJobs()
        if (error) return this.finish(classify(this, error))
        if (this.stop || now() > this.deadline) {
          this.stop ??= 'timeout'
          return this.finish(stopError(this))
        }
        if (vm.pending(this.main!)) {
          this.takeCalls()
          break
        }
        const st = ctx.getPromiseState(this.main!)
        if (st.type === 'rejected') return this.finish(classify(this, st.error))
        if (st.type === 'fulfilled') return this.complete(st.value)
      }
    } catch (e) {
      return this.finish(failure(this, e))
    }
    if (this.stop) return this.finish(stopError(this))
    if (this.outbox.length) {
      this.env.post(['calls', this.id, this.outbox, this.newLogs()])
      this.outbox = []
    }
    if (this.inflight === 0) this.finish(err('DeadlockError', 'the program is awaiting a promise that nothing can settle (no tool call is in flight)'))
  }

  private complete(vh: QuickJSHandle) {
    const ctx = this.inst!.ctx
    let json: string | null = null
    try {
      const res = ctx.callFunction(this.serializeFn!, ctx.undefined, vh)
      if (res.error) {
        const e = classify(this, res.error)
        if (/^(TimeoutError|AbortError|ToolCallLimitError|MemoryLimitError|StackOverflowError|SandboxError)$/.test(e.name)) return this.finish(e)
        return this.finish(err('ResultNotSerializable', 'the returned value is not JSON-serializable: ' + e.message))
      }
      if (this.stop) return this.finish(stopError(this))
      const v = (res as DisposableSuccess<QuickJSHandle>).value
      if (ctx.typeof(v) === 'string') json = ctx.getString(v)
    } catch (e) {
      return this.finish(hostError(this, e))
    }
    const max = this.lim.maxResultBytes
    if (json !== null && json.length > max / 3) {
      const bytes = Buffer.byteLength(json)
      if (bytes > max) return this.finish(err('ResultTooLarge', 'the returned value is ' + bytes + ' bytes of JSON; the limit is ' + max))
    }
    this.finish({ json })
  }

  /** The host aborted the program. */
  abort() {
    this.stop = 'abort'
    this.finish(stopError(this))
  }

  finish(result: RunResult) {
    if (this.finished) return
    this.finished = true
    clearTimeout(this.timer)
    const memoryBytes = this.inst ? this.inst.memory.buffer.byteLength : null
    this.inst = null
    this.env.post(['done', this.id, result, this.newLogs(), this.calls, memoryBytes])
    this.env.ended(this)
  }
}
