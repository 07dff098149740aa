// The per-tool-call path into QuickJS, straight through quickjs-emscripten 0.32's FFI: run the
// pending jobs, call the prelude's take() and settle(). The library's wrappers allocate handles,
// scratch arrays and result objects on every crossing, which cost as much as the guest's own work
// per call (see bench/README.md). Everything else (setup, errors, results) stays on the wrappers.
// Each raw value is freed right after use: a leak would eat the program's memory budget.
import type { QuickJSHandle } from 'quickjs-emscripten-core'
import { GuestFailure, OutOfMemory } from './errors'
import type { Instance } from './instance'

/** The FFI functions used here (all-number signatures, so cwrap hands out the wasm exports). */
interface Ffi {
  QTS_ExecutePendingJob(rt: number, maxJobs: number, lastContextOut: number): number
  QTS_Typeof(ctx: number, value: number): number
  QTS_Call(ctx: number, fn: number, thisValue: number, argc: number, argv: number): number
  QTS_ResolveException(ctx: number, value: number): number
  QTS_GetString(ctx: number, value: number): number
  QTS_NewString(ctx: number, utf8: number): number
  QTS_NewFloat64(ctx: number, n: number): number
  QTS_PromiseState(ctx: number, promise: number): number
  QTS_FreeValuePointer(ctx: number, value: number): void
  QTS_FreeValuePointerRuntime(rt: number, value: number): void
  QTS_FreeCString(ctx: number, p: number): void
}

interface Emscripten {
  HEAPU8: Uint8Array
  _malloc(bytes: number): number
  _free(p: number): void
  UTF8ToString(p: number): string
  stringToUTF8(s: string, p: number, maxBytes: number): void
  lengthBytesUTF8(s: string): number
}

/** A raw value pointer wrapped as a library handle (for the rare paths that classify it). */
type Wrap = (ptr: number) => QuickJSHandle

const PENDING = 0
/** Strings up to this many UTF-8 bytes go through the scratch space: no malloc and free per call. */
const TEXT = 256
/** 'n' of "number", from QTS_Typeof. */
const N = 110
const U = 117

export class Vm {
  private readonly ffi: Ffi
  private readonly em: Emscripten
  private readonly ctxPtr: number
  private readonly rtPtr: number
  private readonly undef: number
  private readonly wrap: Wrap
  /** Scratch in the wasm heap: [0] last job context out, [4..15] up to 3 call arguments, then TEXT bytes for short strings. */
  private readonly scratch: number

  constructor(inst: Instance) {
    const ctx = inst.ctx as unknown as { ffi: Ffi; ctx: { value: number }; rt: { value: number }; memory: { heapValueHandle: Wrap } }
    this.ffi = ctx.ffi
    this.em = inst.heap as unknown as Emscripten
    this.ctxPtr = ctx.ctx.value
    this.rtPtr = ctx.rt.value
    this.undef = (inst.ctx.undefined as unknown as { value: number }).value
    this.wrap = (ptr) => ctx.memory.heapValueHandle(ptr)
    this.scratch = this.malloc(16 + TEXT)
  }

  private malloc(bytes: number): number {
    const p = this.em._malloc(bytes)
    if (!p) throw new OutOfMemory('out of memory')
    return p
  }

  private i32(p: number): number {
    const h = this.em.HEAPU8
    return h[p] | (h[p + 1] << 8) | (h[p + 2] << 16) | (h[p + 3] << 24)
  }

  private setI32(p: number, v: number) {
    const h = this.em.HEAPU8
    h[p] = v; h[p + 1] = v >> 8; h[p + 2] = v >> 16; h[p + 3] = v >> 24
  }

  /** A raw value or string pointer; 0 means QuickJS's own malloc failed: the memory is full. */
  private ptr(p: number): number {
    if (!p) throw new OutOfMemory('out of memory')
    return p
  }

  /** Run every pending job; an uncatchable guest error (interrupt, out of memory) comes back as a handle. */
  runJobs(): QuickJSHandle | null {
    const { ffi, scratch } = this
    this.setI32(scratch, 0)
    const v = this.ptr(ffi.QTS_ExecutePendingJob(this.rtPtr, -1, scratch))
    const ctx = this.i32(scratch)
    if (ctx === 0) {
      ffi.QTS_FreeValuePointerRuntime(this.rtPtr, v)
      return null
    }
    // jobs ran: the value is their count, or the exception that stopped them
    const t = this.ptr(ffi.QTS_Typeof(ctx, v))
    const h = this.em.HEAPU8
    const isNumber = h[t] === N && h[t + 1] === U
    this.em._free(t)
    if (isNumber) {
      ffi.QTS_FreeValuePointer(ctx, v)
      return null
    }
    return this.wrap(v)
  }

  pending(promise: QuickJSHandle): boolean {
    return this.ffi.QTS_PromiseState(this.ctxPtr, (promise as unknown as { value: number }).value) === PENDING
  }

  /** Call a guest function with the `argc` arguments in scratch; returns the raw result, or throws a GuestFailure. */
  private call(fn: QuickJSHandle, argc: number): number {
    const { ffi, ctxPtr } = this
    const r = this.ptr(ffi.QTS_Call(ctxPtr, (fn as unknown as { value: number }).value, this.undef, argc, this.scratch + 4))
    const error = ffi.QTS_ResolveException(ctxPtr, r)
    if (error) {
      ffi.QTS_FreeValuePointer(ctxPtr, r)
      throw new GuestFailure(this.wrap(error))
    }
    return r
  }

  /** fn() as a string. */
  callString(fn: QuickJSHandle): string {
    const { ffi, ctxPtr } = this
    const r = this.call(fn, 0)
    try {
      const p = this.ptr(ffi.QTS_GetString(ctxPtr, r))
      const s = this.em.UTF8ToString(p)
      ffi.QTS_FreeCString(ctxPtr, p)
      return s
    } finally {
      ffi.QTS_FreeValuePointer(ctxPtr, r)
    }
  }

  private newString(s: string): number {
    const bytes = s.length < TEXT / 3 ? TEXT : this.em.lengthBytesUTF8(s) + 1
    const p = bytes <= TEXT ? this.scratch + 16 : this.malloc(bytes)
    this.em.stringToUTF8(s, p, bytes)
    const v = this.ffi.QTS_NewString(this.ctxPtr, p)
    if (bytes > TEXT) this.em._free(p)
    return this.ptr(v)
  }

  /** fn(n, a, b?) for its effect; `a` undefined passes undefined. */
  callVoid(fn: QuickJSHandle, n: number, a: string | undefined, b?: string) {
    const { ffi, ctxPtr, scratch } = this
    let nv = 0, av = 0, bv = 0
    try {
      nv = this.ptr(ffi.QTS_NewFloat64(ctxPtr, n))
      if (a !== undefined) av = this.newString(a)
      if (b !== undefined) bv = this.newString(b)
      this.setI32(scratch + 4, nv)
      this.setI32(scratch + 8, av || this.undef)
      if (bv) this.setI32(scratch + 12, bv)
      ffi.QTS_FreeValuePointer(ctxPtr, this.call(fn, bv ? 3 : 2))
    } finally {
      if (nv) ffi.QTS_FreeValuePointer(ctxPtr, nv)
      if (av) ffi.QTS_FreeValuePointer(ctxPtr, av)
      if (bv) ffi.QTS_FreeValuePointer(ctxPtr, bv)
    }
  }
}
