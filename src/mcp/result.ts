// An MCP tool result as kotodama shows it (SPEC §14 through §7). Programs get the content blocks
// as JSON, each resource with its `mcp://` URL added; the model gets text joined (paged and
// archived past the budget), image and audio blocks as attachments, resources as URLs it can
// read. A result with `isError` is an error.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { asMediaNode } from '../exit/media-nodes'
import type { ExitKit, ToolResultOutput } from '../contract/tool'
import { mcpUrl } from './url'

type Block = Record<string, any>

export interface McpOutput {
  content: Block[]
  structuredContent?: Record<string, unknown>
}

/** A result with `isError`: the model (or the program) sees the server's text as the error. */
export class McpToolError extends Error {
  override name = 'McpToolError'
}

/** The raw output of a call; throws McpToolError for an error result. */
export function toOutput(server: string, result: CallToolResult): McpOutput {
  const content = (Array.isArray(result.content) ? result.content : []).map(b => withUrl(server, b as Block))
  if (result.isError) {
    const text = content.filter(b => b.type === 'text').map(b => b.text).join('\n').trim()
    throw new McpToolError(`the tool reported an error: ${text || '(no message)'}`)
  }
  const out: McpOutput = { content }
  if (result.structuredContent && typeof result.structuredContent === 'object') out.structuredContent = result.structuredContent
  return out
}

function withUrl(server: string, b: Block): Block {
  if (b?.type === 'resource_link' && typeof b.uri === 'string') return { ...b, url: mcpUrl(server, b.uri) }
  if (b?.type === 'resource' && typeof b.resource?.uri === 'string') return { ...b, url: mcpUrl(server, b.resource.uri) }
  return b
}

export async function presentMcp(out: McpOutput, _input: unknown, exit: ExitKit): Promise<ToolResultOutput> {
  const content = Array.isArray(out?.content) ? out.content : []
  // structured content is the result only when the server sent no blocks for it
  if (!content.length && out?.structuredContent !== undefined) return exit.plain(out.structuredContent)
  const parts: string[] = []
  for (const b of content) parts.push(await blockText(b, exit))
  return exit.budgeted(parts.join('\n'))
}

async function blockText(b: Block, exit: ExitKit): Promise<string> {
  switch (b?.type) {
    case 'text': return String(b.text ?? '')
    case 'image':
    case 'audio': {
      const node = asMediaNode(b)
      return node ? exit.attach(node, 'once') : `[${b.type} without data]`
    }
    case 'resource_link': return resourceLine(b.url, b.mimeType, b.name, b.description)
    case 'resource': {
      const r = b.resource ?? {}
      const head = resourceLine(b.url, r.mimeType)
      if (typeof r.text === 'string') return `${head}\n${r.text}`
      const node = asMediaNode(b)
      return node ? `${head}\n${await exit.attach(node, 'once')}` : head
    }
    default: return JSON.stringify(b)
  }
}

function resourceLine(url: string, mimeType?: string, name?: string, description?: string): string {
  const fields = [url, mimeType, name && name !== url ? `name: ${name}` : undefined, description].filter(f => typeof f === 'string' && f)
  return `[resource: ${fields.join('; ')}]`
}
