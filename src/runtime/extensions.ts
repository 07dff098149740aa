// What other plugins (and the built-ins) add to every runtime (SPEC §9). The Koishi service
// removes an entry when the plugin that registered it is disposed.
import { isBuiltinTool, RESERVED_SCHEMES } from '../contract/builtin-names'
import { SCHEME_NAME } from '../resources/file-url'
import type { SchemeFactory, ToolFactory } from '../tools/types'
import type { WakeEngineFactory } from '../attention/wake-engine'

export class Extensions {
  readonly schemes = new Map<string, SchemeFactory>()
  readonly anonymousSchemes = new Set<SchemeFactory>()
  readonly tools = new Map<string, ToolFactory>()
  readonly wakeEngines = new Map<string, WakeEngineFactory>()
  /** Bumped on every change so runtimes rebuild their catalogs lazily. */
  version = 0

  addScheme(scheme: string | undefined, factory: SchemeFactory): () => void {
    if (scheme === undefined) {
      this.anonymousSchemes.add(factory)
      this.version++
      return () => { this.anonymousSchemes.delete(factory) && this.version++ }
    }
    const name = scheme.toLowerCase()
    if (!SCHEME_NAME.test(name)) throw new Error(`invalid scheme name "${scheme}"`)
    if (RESERVED_SCHEMES.includes(name)) throw new Error(`scheme "${name}" is reserved by kotodama`)
    if (this.schemes.has(name)) throw new Error(`scheme "${name}" is already registered`)
    this.schemes.set(name, factory)
    this.version++
    return () => { this.schemes.get(name) === factory && this.schemes.delete(name) && this.version++ }
  }

  addTool(name: string, factory: ToolFactory): () => void {
    if (!/^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/.test(name)) throw new Error(`invalid tool name "${name}" (letters, digits, _ and -, at most 64)`)
    if (isBuiltinTool(name)) throw new Error(`tool "${name}" is built into kotodama`)
    if (this.tools.has(name)) throw new Error(`tool "${name}" is already registered`)
    this.tools.set(name, factory)
    this.version++
    return () => { this.tools.get(name) === factory && this.tools.delete(name) && this.version++ }
  }

  addWakeEngine(name: string, factory: WakeEngineFactory): () => void {
    if (this.wakeEngines.has(name)) throw new Error(`wake engine "${name}" is already registered`)
    this.wakeEngines.set(name, factory)
    this.version++
    return () => { this.wakeEngines.get(name) === factory && this.wakeEngines.delete(name) && this.version++ }
  }
}
