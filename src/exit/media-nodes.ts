// Media are recognised only in explicit nodes (SPEC §7 step 4); a plain field that happens to
// hold base64 is never guessed to be media.

export interface MediaNode {
  data: string            // base64
  mediaType: string
  /** where the bytes came from, when the node says so (read file results) */
  url?: string
  filename?: string
  width?: number
  height?: number
}

const isObject = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v)
const isBase64 = (v: unknown): v is string => typeof v === 'string'

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

/**
 * Replaces every media node in `value` (at any depth) by what `replace` returns, leaving
 * everything else as it was. Cycles are not expected in tool results (they are JSON).
 */
export async function replaceMedia(value: unknown, replace: (node: MediaNode, raw: Record<string, any>) => Promise<unknown>): Promise<unknown> {
  const node = asMediaNode(value)
  if (node) return replace(node, value as Record<string, any>)
  if (Array.isArray(value)) {
    const out: unknown[] = []
    for (const v of value) out.push(await replaceMedia(v, replace))
    return out
  }
  if (isObject(value)) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = await replaceMedia(v, replace)
    return out
  }
  return value
}
