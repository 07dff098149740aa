// One MCP tool as a kotodama tool (SPEC §14): the server's description and input schema, a call
// through the server's connection, the result presented through the unified exit.
import type { Tool as McpToolDef } from '@modelcontextprotocol/sdk/types.js'
import { tsType } from '../sandbox/declarations'
import type { Tool, ToolInputSchema } from '../contract/tool'
import type { McpConnection } from './connection'
import { presentMcp, toOutput, type McpOutput } from './result'
import CONTENT_TYPE from './result-type.txt'

type Input = Record<string, unknown>

export function mcpTool(connection: McpConnection, def: McpToolDef, inputSchema: ToolInputSchema<Input>): Tool<Input, McpOutput> {
  return {
    description: def.description?.trim() || def.title || def.annotations?.title || `${def.name} (MCP server ${connection.id})`,
    inputSchema,
    async execute(input, ctx) {
      return toOutput(connection.id, await connection.call(def.name, input ?? {}, ctx.signal))
    },
    present: presentMcp,
    program: { output: resultType(def) },
    origin: { server: connection.id, ...(connection.instructions?.trim() ? { about: connection.instructions } : {}) },
  }
}

/** The raw result as programs get it; structured content is typed when the tool declares its schema. */
function resultType(def: McpToolDef): string {
  const structured = def.outputSchema ? `structuredContent: ${tsType(def.outputSchema as object)}` : 'structuredContent?: any'
  return `{ content: ${CONTENT_TYPE.trim()}; ${structured} }`
}
