// A tool's input schema as the SDK's Schema, one per schema object: its JSON Schema is made once
// (the SDK makes it lazily per wrapper), however many conversations' tools share the schema.
import { asSchema, type Schema } from 'ai'
import type { Tool } from '../contract/tool'

const schemas = new WeakMap<object, Schema>()
const sizes = new WeakMap<object, number>()

export function sdkSchema(input: Tool['inputSchema']): Schema {
  if (typeof input !== 'object' && typeof input !== 'function') return asSchema(input as any)
  let s = schemas.get(input as object)
  if (!s) schemas.set(input as object, s = asSchema(input as any))
  return s
}

/** Characters of the schema's JSON (0 when it has none the SDK can make). */
export function schemaChars(input: Tool['inputSchema']): number {
  const keyed = typeof input === 'object' || typeof input === 'function'
  let n = keyed ? sizes.get(input as object) : undefined
  if (n === undefined) {
    n = 0
    try {
      n = (JSON.stringify((sdkSchema(input) as any).jsonSchema) ?? '').length
    } catch {}
    if (keyed) sizes.set(input as object, n)
  }
  return n
}
