// Media are recognised only in explicit nodes (SPEC §7 step 4); a plain field that happens to
// hold base64 is never guessed to be media.
import type { MediaNode } from '../contract/tool'

const isObject = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v)
const isBase64 = (v: unknown): v is string => typeof v === 'string'
const hasOwn = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k)

/** The media a node carries, or undefined when it is not one of the explicit shapes. */
export function asMediaNode(v: unknown): MediaNode | undefined {
  if (!isObject(v)) return undefined
  // read({url}) file result
  if (v.kind === 'file' && isBase64(v.data) && typeof v.mediaType === 'string' && typeof v.url === 'string') {
    return { data: v.data, mediaType: v.mediaType, url: v.url, filename: v.filename, width: v.width, height: v.height }
  }
  // MCP image / audio content blocks
  if ((v.type === 'image' || v.type === 'audio') && isBase64(v.data) && typeof v.mimeType === 'string') {
    return { data: v.data, mediaType: v.mimeType }
  }
  // MCP embedded resource with a blob
  if (v.type === 'resource' && isObject(v.resource) && isBase64(v.resource.blob)) {
    return { data: v.resource.blob, mediaType: v.resource.mimeType ?? 'application/octet-stream', filename: v.resource.uri }
  }
  // AI SDK content parts
  if ((v.type === 'image-data' || v.type === 'file-data') && isBase64(v.data) && typeof v.mediaType === 'string') {
    return { data: v.data, mediaType: v.mediaType, filename: v.filename }
  }
  return undefined
}

/** A media node found in a value, with the keys that lead to it from the root. */
export interface FoundMedia {
  path: (string | number)[]
  node: MediaNode
  raw: Record<string, any>
}

/**
 * Every media node in `value` at any depth, in depth-first order. Synchronous and copy-free:
 * a large result without media costs one walk (an await per node made this ~20x slower).
 */
export function findMedia(value: unknown): FoundMedia[] {
  const found: FoundMedia[] = []
  const path: (string | number)[] = []
  // `v` is always an object or array: primitives are skipped before the call (cheaper walk).
  const visit = (v: Record<string, any>): void => {
    const node = asMediaNode(v)
    if (node) {
      found.push({ path: path.slice(), node, raw: v })
      return
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child = v[i]
        if (!child || typeof child !== 'object') continue
        path.push(i)
        visit(child)
        path.pop()
      }
      return
    }
    // for-in (own keys only, like Object.keys) allocates no key array per object
    for (const k in v) {
      const child = v[k]
      if (!child || typeof child !== 'object' || !hasOwn(v, k)) continue
      path.push(k)
      visit(child)
      path.pop()
    }
  }
  if (value && typeof value === 'object') visit(value)
  return found
}

/**
 * Replaces every media node in `value` (at any depth) by what `replace` returns, leaving
 * everything else as it was. Without media the value itself comes back (no copy); otherwise
 * only the arrays and objects on the way to a node are copied, so the input is never mutated.
 * Nodes are replaced one after another in depth-first order (attachments keep that order).
 * Cycles are not expected in tool results (they are JSON).
 */
export async function replaceMedia(value: unknown, replace: (node: MediaNode, raw: Record<string, any>) => Promise<unknown>): Promise<unknown> {
  const found = findMedia(value)
  if (!found.length) return value
  const replaced: unknown[] = []
  for (const f of found) replaced.push(await replace(f.node, f.raw))
  return rebuild(value, found, replaced)
}

function rebuild(value: unknown, found: FoundMedia[], replaced: unknown[]): unknown {
  // Copies made here are ours alone, so they can be filled in place.
  const copies = new WeakSet<object>()
  const own = (v: any): any => {
    if (copies.has(v)) return v
    const copy = Array.isArray(v) ? v.slice() : { ...v }
    copies.add(copy)
    return copy
  }
  let root: any = value
  found.forEach(({ path }, i) => {
    if (!path.length) {
      root = replaced[i]
      return
    }
    root = own(root)
    let at = root
    for (const key of path.slice(0, -1)) {
      const child = own(at[key])
      at[key] = child
      at = child
    }
    at[path[path.length - 1]] = replaced[i]
  })
  return root
}
