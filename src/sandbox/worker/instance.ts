// Fresh QuickJS wasm instances for the worker: one per program, each with its own
// WebAssembly.Memory whose maximum is the program's memory limit, and the prelude already
// compiled in its context (half a millisecond). The next one is prepared while the worker is
// idle. Instances are dropped, never disposed: nothing can leak or abort.
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type CustomizeVariantOptions,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core'
import variant from '@jitl/quickjs-wasmfile-release-sync'
import { PRELUDE } from '../prelude'

export const PAGE = 65536
/** The build's initial memory: 16 MiB. */
export const INITIAL_PAGES = 256

/** Emscripten's heap functions, used to probe for room before a big string is copied in. */
export interface Heap {
  _malloc(bytes: number): number
  _free(pointer: number): void
}

export interface Instance {
  mod: QuickJSWASMModule
  heap: Heap
  memory: WebAssembly.Memory
  rt: QuickJSRuntime
  ctx: QuickJSContext
  /** The prelude's function, evaluated but not called: nothing of it is visible to a program yet. */
  prelude: QuickJSHandle
}

// emscripten's own console output (it has none in this build that matters); not in the typings
const quiet = { print() {}, printErr() {} } as CustomizeVariantOptions['emscriptenModule']
// The package's default export is the variant; unwrap in case a loader wraps it once more
const baseVariant = ((variant as unknown as { default?: typeof variant }).default ?? variant)

let wasmModule: WebAssembly.Module

export function useWasm(m: WebAssembly.Module) {
  wasmModule = m
}

export async function instantiate(pages: number): Promise<Instance> {
  const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: pages })
  const v = newVariant(baseVariant, { wasmModule, wasmMemory: memory, emscriptenModule: quiet })
  const mod = await newQuickJSWASMModuleFromVariant(v)
  const rt = mod.newRuntime()
  // `module` is protected in the typings; it is the emscripten module with the heap functions
  const heap = (mod as unknown as { module: Heap }).module
  const ctx = rt.newContext()
  const prelude = ctx.unwrapResult(ctx.evalCode(PRELUDE, 'sandbox.js'))
  return { mod, heap, memory, rt, ctx, prelude }
}

let spare: { pages: number; promise: Promise<Instance> } | null = null

/** An instance for a program with this many pages: the prepared one if it fits, else a new one. */
export function take(pages: number): Promise<Instance> {
  const s = spare
  spare = null
  return s && s.pages === pages ? s.promise : instantiate(pages)
}

/** Start preparing the next program's instance. */
export function prepare(pages: number): Promise<Instance> {
  const s = { pages, promise: instantiate(pages) }
  s.promise.catch(() => { if (spare === s) spare = null })
  spare = s
  return s.promise
}
