// `await import('skill://<name>/file.js')` in a program (SPEC §24): QuickJS asks for a module's
// text synchronously, in the middle of a job, so the worker posts the request to the host (which
// reads it through skill://, the same containment as `read`) and blocks on the module port until
// the answer, the program's stop or its deadline. Relative imports stay inside the importing
// skill's folder. Every failure is a catchable, named error of the `import()` promise.
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads'
import type { QuickJSRuntime } from 'quickjs-emscripten-core'
import { FLAG_MODULE, type ModuleReply, type WorkerMessage } from '../protocol'
import { MAX_MODULES } from '../limits'

const SKILL = /^skill:\/\//i
/** a slice of the wait: the stop flag and the deadline are looked at between slices */
const SLICE_MS = 50

export interface ModuleEnv {
  /** absent (the warm-up run): no imports */
  port?: MessagePort
  flags: Int32Array
  post(m: WorkerMessage): void
}

export interface ModuleRun {
  id: number
  /** ms until the program's deadline */
  timeLeft(): number
  /** the host or a limit stopped the program */
  stopped(): boolean
}

const named = (name: string, message: string) => Object.assign(new Error(message), { name })
// quickjs-emscripten drops a normalizer's error (the loader then gets ''), and a name is a C string: a refusal travels as a
// name the loader recognises instead
const REFUSED = 'refused:'
const refuse = (message: string) => REFUSED + message

/** `base` imports `requested`: a skill:// URL, or a path relative to a skill module inside its folder. */
export function normalizeModule(base: string, requested: string): string {
  if (SKILL.test(requested)) return requested
  if (!/^\.\.?\//.test(requested)) return refuse(`only skill:// modules can be imported, not ${requested.slice(0, 200)}`)
  if (!SKILL.test(base)) {
    return refuse(`a relative import needs a skill module to start from; write import('skill://<name>/${requested.replace(/^(\.\.?\/)+/, '')}')`)
  }
  const [name, ...path] = base.slice('skill://'.length).split('/')
  path.pop()
  for (const seg of requested.split('/')) {
    if (seg === '.' || seg === '') continue
    if (seg !== '..') path.push(seg)
    else if (!path.length) return refuse(`${requested.slice(0, 200)} from ${base.slice(0, 200)} leaves the skill's folder`)
    else path.pop()
  }
  return `skill://${name}/${path.join('/')}`
}

/** Gives the program's runtime its module loader: bounded in count, answered by the host. */
export function installModules(rt: QuickJSRuntime, run: ModuleRun, env: ModuleEnv) {
  let count = 0
  let seq = 0
  rt.setModuleLoader((url) => {
    if (url.startsWith(REFUSED)) return { error: named('ModuleNotFound', url.slice(REFUSED.length)) }
    if (++count > MAX_MODULES) return { error: named('TooManyModules', `a program may import at most ${MAX_MODULES} modules`) }
    const port = env.port
    if (!port) return { error: named('ModuleNotFound', 'imports are not available here') }
    const ask = ++seq
    env.post(['module', run.id, ask, url])
    for (;;) {
      const seen = Atomics.load(env.flags, FLAG_MODULE)
      let m: { message: ModuleReply } | undefined
      while ((m = receiveMessageOnPort(port)) !== undefined) {
        const [id, n, source, name, message] = m.message
        if (id === run.id && n === ask) return source !== null ? source : { error: named(name, message) }
      }
      if (run.stopped()) return { error: named('AbortError', 'the program was stopped while importing') }
      const left = run.timeLeft()
      if (left <= 0) return { error: named('TimeoutError', `the program timed out importing ${url.slice(0, 200)}`) }
      Atomics.wait(env.flags, FLAG_MODULE, seen, Math.min(SLICE_MS, left))
    }
  }, normalizeModule)
}
