// How the worker names what ended a program (SPEC §8 error names): stops ordered by the host or
// the limits, a full memory, a deep stack, and thrown guest values turned into { name, message, line? }.
import type { DisposableSuccess, QuickJSHandle } from 'quickjs-emscripten-core'
import type { ProgramError } from '../types'
import type { WorkerLimits } from '../limits'
import { PAGE, type Instance } from './instance'

const MAX_TEXT = 4096
/** Within this many bytes of the cap, an odd failure is taken for a full memory. */
const NEAR_CAP = 1 << 20

/** `input`: a tool input over maxToolInputBytes (`inputError` says which) */
export type StopReason = 'abort' | 'calls' | 'timeout' | 'input'

/** What classifying needs to know about the run. */
export interface RunState {
  stop: StopReason | null
  /** the message of an `input` stop */
  inputError?: string
  lim: WorkerLimits
  inst: Instance | null
  /** The prelude's describe(e) helper. */
  describe: QuickJSHandle | null
}

/** emscripten's malloc found no room (see Program.newString). */
export class OutOfMemory extends Error {}

/** A guest call threw; the handle holds the thrown value. */
export class GuestFailure extends Error {
  constructor(readonly handle: QuickJSHandle) {
    super('guest failure')
  }
}

export const err = (name: string, message: string): ProgramError => ({ name, message })
export const clip = (s: string) => s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) + '…' : s

export function errorMessage(e: unknown): string {
  try {
    return String(e && (e as Error).message !== undefined ? (e as Error).message : e)
  } catch {
    return 'unknown error'
  }
}

export function stopError(r: RunState): ProgramError {
  if (r.stop === 'abort') return err('AbortError', 'the program was aborted by the host')
  if (r.stop === 'calls') return err('ToolCallLimitError', 'the program made more than ' + r.lim.maxToolCalls + ' tool calls')
  if (r.stop === 'input') return err('InputTooLarge', r.inputError ?? 'a tool input is over the limit of ' + r.lim.maxToolInputBytes + ' bytes')
  return err('TimeoutError', 'the program exceeded its time limit of ' + r.lim.timeoutMs + ' ms')
}

const nearCap = (r: RunState) => r.inst !== null && r.inst.memory.buffer.byteLength >= r.lim.pages * PAGE - NEAR_CAP
const memoryError = (r: RunState) => err('MemoryLimitError', 'the program ran out of memory (limit ' + r.lim.pages * PAGE + ' bytes)')
const stackError = () => err('StackOverflowError', 'maximum call stack size exceeded (recursion or nesting too deep)')

/**
 * A host exception out of a VM call: V8's own stack overflowing through the wasm frames, a wasm
 * trap, or a bug. The instance is dropped either way.
 */
export function hostError(r: RunState, e: unknown): ProgramError {
  if (r.stop) return stopError(r)
  if (e instanceof OutOfMemory) return memoryError(r)
  if (e instanceof RangeError && /call stack/i.test(e.message)) return stackError()
  if (nearCap(r)) return memoryError(r)
  return err('SandboxError', 'internal sandbox failure: ' + clip(errorMessage(e)))
}

/** A failure out of a guest or VM call, whichever it was. */
export const failure = (r: RunState, e: unknown) => e instanceof GuestFailure ? classify(r, e.handle) : hostError(r, e)

function cleanStack(stack: string) {
  // drop prelude frames and the wrapper's own call frame
  return stack.split('\n').filter((l) => l.trim() && !l.includes('sandbox.js') && !l.includes('<eval> (program.js')).join('\n')
}

interface Described { name: string; message: string; stack?: string }

/** Turn a thrown guest value into { name, message, line?, stack? }. */
export function classify(r: RunState, h: QuickJSHandle): ProgramError {
  if (r.stop) return stopError(r)
  const ctx = r.inst!.ctx
  let d: Described | null = null
  try {
    const t = ctx.typeof(h)
    // At the cap QuickJS may not manage to allocate the error object and throws null
    if (t !== 'object' && t !== 'function' && nearCap(r)) return memoryError(r)
    const res = ctx.callFunction(r.describe!, ctx.undefined, h)
    if (res.error) res.error.dispose()
    else {
      const v = (res as DisposableSuccess<QuickJSHandle>).value
      d = JSON.parse(ctx.getString(v))
      v.dispose()
    }
  } catch (e) {
    return hostError(r, e)
  }
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
