// tool_search({ query, limit? }) (SPEC §18): the best-matching tools' full declarations. The
// hidden tools it returns are loaded: declared from the next step on, for the rest of the turn.
import { z } from 'zod'
import type { Tool } from '../contract/tool'
import { prose } from '../util/prose'
import { jsonSchemaOf, ToolIndex } from './tool-index'
import { load } from './turn'
import DESCRIPTION from './tool-search.txt'

export const TOOL_SEARCH = 'tool_search'
const DEFAULT_LIMIT = 5

export interface FoundTool {
  name: string
  description: string
  inputSchema: unknown
  /** codemode: the result type a program gets, when the tool declares one */
  returns?: string
}

export interface ToolSearchOutput {
  tools: FoundTool[]
  note?: string
}

type Input = { query: string; limit?: number }

const inputSchema = z.object({
  query: z.string().trim().min(1).describe('the task, in a few words'),
  limit: z.number().int().min(1).max(10).optional().describe(`how many tools at most (default ${DEFAULT_LIMIT})`),
})

/** `tools`: every tool it may return; `hidden`: those not declared until found. */
export function toolSearchTool(o: { tools: Map<string, Tool>; hidden: ReadonlySet<string>; codemode: boolean }): Tool<Input, ToolSearchOutput> {
  let index: ToolIndex | undefined
  return {
    description: prose(DESCRIPTION, { codemode: o.codemode }),
    inputSchema,
    async execute({ query, limit = DEFAULT_LIMIT }, ctx) {
      // once per catalog version: a new registry version makes a new plan and a new tool
      index ??= new ToolIndex(o.tools)
      const hits = index.find(query, limit)
      for (const h of hits) if (o.hidden.has(h.name)) load(ctx.turn, h.name)
      const tools = hits.map(h => found(h.name, o.tools.get(h.name), o.codemode))
      if (tools.length) return { tools }
      const note = 'No tool matches these words. Try other words for the same task (a synonym, the object it acts on, another language), '
        + 'or see the sources in the system prompt.'
      return { tools, note }
    },
  }
}

function found(name: string, tool: Tool, codemode: boolean): FoundTool {
  return {
    name, description: tool.description, inputSchema: jsonSchemaOf(tool) ?? { type: 'object' },
    ...(codemode && tool.program?.output ? { returns: tool.program.output } : {}),
  }
}
