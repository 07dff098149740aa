// mcp://<server>/<uri> (SPEC §14): reads a resource of one of the profile's MCP servers. It is
// registered like any extension's scheme. A text longer than one page is archived first and
// paged from the artifact, as http does; a single binary content is a file (media).
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js'
import { ResourceError } from '../resources/errors'
import { imageDimensions } from '../resources/image-dimensions'
import type { ArtifactStore } from '../resources/schemes/artifact-store'
import type { MediaBytes, ReadOptions, ReadResult, SchemeHandler } from '../resources/types'
import { clip } from '../util/clip'
import type { McpConnection } from './connection'
import { mcpUrl, parseMcpUrl } from './url'
import { textResult } from '../resources/schemes/text-result'

export interface McpSchemeDeps {
  /** the profile's servers */
  servers: string[]
  connection(id: string): McpConnection | undefined
  artifacts: ArtifactStore
  resources: { read(url: string, opts: ReadOptions): Promise<ReadResult> }
}

type Content = ReadResourceResult['contents'][number]

export function mcpScheme(o: McpSchemeDeps): SchemeHandler | undefined {
  if (!o.servers.length) return undefined
  const fetch = async (url: string, signal?: AbortSignal) => {
    const { server, uri } = parseMcpUrl(url)
    const id = o.servers.find(s => s === server) ?? o.servers.find(s => s.toLowerCase() === server.toLowerCase())
    const connection = id !== undefined ? o.connection(id) : undefined
    if (!connection) throw new ResourceError('not_found', `"${clip(server)}" is not an MCP server of this profile; its servers: ${o.servers.join(', ')}`)
    const { contents } = await connection.readResource(uri, signal).catch(e => { throw notFound(e) })
    if (!contents?.length) throw new ResourceError('not_found', `MCP server "${connection.id}" has no content for ${clip(uri)}`)
    return { server: connection.id, contents }
  }
  return {
    scheme: 'mcp',
    async read(url, opts): Promise<ReadResult> {
      const { server, contents } = await fetch(url, opts.signal)
      const only = contents.length === 1 ? contents[0] : undefined
      if (only && typeof (only as any).blob === 'string') {
        const data = Buffer.from((only as any).blob, 'base64')
        const mediaType = only.mimeType ?? 'application/octet-stream'
        return { kind: 'file', url, mediaType, data: data.toString('base64'), byteLength: data.length, ...imageDimensions(data, mediaType) }
      }
      const text = contents.length === 1 ? textOf(server, only) : contents.map(c => labelled(server, c)).join('\n')
      const mediaType = only?.mimeType ?? 'text/plain'
      if (opts.whole && Buffer.byteLength(text) > opts.maxBytes) {
        throw new ResourceError('too_large', `the resource has ${Buffer.byteLength(text)} bytes, more than ${opts.maxBytes}`)
      }
      const archiveType = mediaType.startsWith('application/json') ? 'application/json' : 'text/plain'
      return textResult({ url, text, mediaType, archiveType }, opts, o)
    },
    async bytes(url, signal): Promise<MediaBytes> {
      const { contents } = await fetch(url, signal)
      const c = contents[0] as any
      const data = typeof c.blob === 'string' ? Buffer.from(c.blob, 'base64') : Buffer.from(String(c.text ?? ''), 'utf8')
      return { data, mediaType: c.mimeType ?? (typeof c.blob === 'string' ? 'application/octet-stream' : 'text/plain') }
    },
  }
}

/** MCP's "resource not found" (-32002), or the SDK server's InvalidParams "Resource … not found", is not_found. */
function notFound(e: any): unknown {
  const code = e?.mcpCode
  if (code === -32002 || (code === -32602 && /\bnot found\b/i.test(String(e?.message)))) return new ResourceError('not_found', String(e.message))
  return e
}

/** One of several contents, headed by its URL and media type. */
function labelled(server: string, c: Content): string {
  const type = c.mimeType ? `; ${c.mimeType}` : ''
  return `[resource: ${mcpUrl(server, c.uri)}${type}]\n${textOf(server, c)}`
}

function textOf(server: string, c: Content | undefined): string {
  if (!c) return ''
  if (typeof (c as any).text === 'string') return (c as any).text
  const bytes = Buffer.from(String((c as any).blob ?? ''), 'base64').length
  return `[binary content; ${c.mimeType ?? 'application/octet-stream'}; ${bytes} bytes; read ${mcpUrl(server, c.uri)} alone to get it]`
}
