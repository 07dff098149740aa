// A tool result is plain JSON once it leaves the exit (SPEC §10): normalised as JSON.stringify
// would (toJSON, so a Date becomes its ISO string; undefined, functions and symbols vanish from
// objects and become null in arrays; NaN and ±Infinity become null). A cycle or a BigInt cannot
// be JSON and is refused. Copy-on-write: a value that is already plain comes back as itself, so a
// large clean result costs one walk and no copy.

export class NotJsonError extends Error {
  override name = 'NotJsonError'
}

const hasOwn = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k)

/** The JSON-plain form of `value` (undefined at the top becomes null). */
export function toPlainJson(value: unknown): unknown {
  const out = plain(value, '', [], '')
  return out === undefined ? null : out
}

/** undefined means "leave out" (as JSON.stringify does for object members). */
function plain(value: unknown, key: string, stack: object[], path: string): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as any).toJSON === 'function') value = (value as any).toJSON(key)
  switch (typeof value) {
    case 'string': case 'boolean': return value
    case 'number': return Number.isFinite(value) ? value : null
    case 'bigint': throw new NotJsonError(`${path || 'the result'} is a BigInt, which JSON cannot hold`)
    case 'undefined': case 'function': case 'symbol': return undefined
  }
  if (value === null) return null
  const obj = value as Record<string, unknown>
  if (stack.includes(obj)) throw new NotJsonError(`${path || 'the result'} refers to itself (a cycle), which JSON cannot hold`)
  stack.push(obj)
  try {
    if (Array.isArray(obj)) {
      let copy: unknown[] | undefined
      for (let i = 0; i < obj.length; i++) {
        const v = obj[i]
        const p = plain(v, String(i), stack, `${path}[${i}]`)
        const q = p === undefined ? null : p
        if (q !== v || !(i in obj)) (copy ??= obj.slice(0, i))[i] = q
        else if (copy) copy[i] = q
      }
      return copy ?? obj
    }
    // A class instance (Map, a custom object) keeps only its own enumerable keys, as in JSON.
    const proto = Object.getPrototypeOf(obj)
    let copy: Record<string, unknown> | undefined = proto === Object.prototype || proto === null ? undefined : {}
    let kept = 0
    for (const k in obj) {
      if (!hasOwn(obj, k)) continue
      const v = obj[k]
      const p = plain(v, k, stack, path ? `${path}.${k}` : k)
      if (p === v && !copy) { kept++; continue }
      if (!copy) {
        copy = {}
        let n = 0
        for (const k2 in obj) {
          if (n >= kept) break
          if (!hasOwn(obj, k2)) continue
          copy[k2] = obj[k2]
          n++
        }
      }
      if (p !== undefined) copy[k] = p
    }
    return copy ?? obj
  } finally {
    stack.pop()
  }
}
