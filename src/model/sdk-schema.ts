// A tool's input schema as the SDK's Schema, one per schema object: its JSON Schema is made once
// (the SDK makes it lazily per wrapper), however many conversations' tools share the schema.
// What is declared to the provider is lean (SPEC §27 "Fewer tokens"): no `$schema`, no
// `additionalProperties`, no null alternatives. The turn checks a call with the tool's own
// schema (call-model.ts), so a null or an extra field is answered the same as before.
import { asSchema, jsonSchema, type Schema } from 'ai'
import type { JSONSchema7 } from '@ai-sdk/provider'
import type { Tool } from '../contract/tool'

const schemas = new WeakMap<object, Schema>()
const sizes = new WeakMap<object, number>()

export function sdkSchema(input: Tool['inputSchema']): Schema {
  if (typeof input !== 'object' && typeof input !== 'function') return asSchema(input as any)
  let s = schemas.get(input as object)
  if (!s) schemas.set(input as object, s = leanSdkSchema(asSchema(input as any)))
  return s
}

function leanSdkSchema(base: Schema): Schema {
  const given = base.jsonSchema
  const lean = isThenable(given) ? Promise.resolve(given).then(leanSchema) : leanSchema(given)
  return jsonSchema(lean, base.validate ? { validate: base.validate } : {})
}

const isThenable = (x: unknown): x is PromiseLike<JSONSchema7> => typeof (x as PromiseLike<unknown>)?.then === 'function'

/** A copy of `s` without the decoration no provider needs. */
export function leanSchema(s: JSONSchema7): JSONSchema7 {
  return lean(s) as JSONSchema7
}

function lean(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(lean)
  if (!s || typeof s !== 'object') return s
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(s)) {
    if (k === '$schema' || (k === 'additionalProperties' && isDefault(v))) continue
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([name, p]) => [name, lean(p)])) : lean(v)
  }
  return withoutNull(out)
}

/** `false` is no provider's business (the turn checks); `true` and `{}` are JSON Schema's default */
const isDefault = (v: unknown) => v === false || v === true || (!!v && typeof v === 'object' && !Object.keys(v).length)

/** `type: [T, 'null']` is T; `anyOf: [X, {type: 'null'}]` is X (keeping the outer description). */
function withoutNull(s: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(s.type)) {
    const types = s.type.filter(t => t !== 'null')
    if (types.length && types.length < s.type.length) s.type = types.length === 1 ? types[0] : types
  }
  if (Array.isArray(s.anyOf)) {
    const rest = s.anyOf.filter(x => !(x && typeof x === 'object' && (x as { type?: unknown }).type === 'null'))
    if (rest.length === 1 && rest.length < s.anyOf.length) {
      const { anyOf: _, ...outer } = s
      return { ...rest[0] as object, ...outer }
    }
  }
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
