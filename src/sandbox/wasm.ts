// The compiled QuickJS wasm, shared by every Sandbox of the process. A WebAssembly.Module is
// immutable compiled code, not state: each program instantiates it with a Memory of its own, so
// sharing it across plugin instances leaks nothing between them and saves ~100 ms of compiling.
import { readFileSync } from 'node:fs'

let compiled: Promise<WebAssembly.Module> | undefined

export function compileWasm(): Promise<WebAssembly.Module> {
  if (!compiled) {
    const p = compiled = (async () => WebAssembly.compile(readFileSync(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm'))))()
    // a failed compile is tried again by the next caller
    p.catch(() => { if (compiled === p) compiled = undefined })
  }
  return compiled
}
