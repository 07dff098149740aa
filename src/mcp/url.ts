// mcp://<server>/<uri> — a resource of an MCP server, as the model reads it (SPEC §14). The
// server's own URI follows the first slash unchanged (its scheme, query and all), so the model
// copies what it was shown and the server gets back exactly what it gave.
import { clip } from '../util/clip'
import { ResourceError } from '../resources/errors'

export function mcpUrl(server: string, uri: string): string {
  return `mcp://${server}/${uri}`
}

export function parseMcpUrl(url: string): { server: string; uri: string } {
  const m = /^mcp:\/\/([^/?#]+)\/([\s\S]+)$/i.exec(url)
  if (!m) throw new ResourceError('invalid_url', `"${clip(url)}" is not an MCP resource URL; write mcp://<server>/<resource uri>`)
  return { server: m[1], uri: m[2] }
}
