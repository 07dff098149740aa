// What the model is shown of a tool's raw result. The unified exit (paging, archiving, media)
// grows here; every direct tool call passes this one function.
import type { Tool, ToolResultOutput } from '../tools/types'

export async function toolOutput(tool: Tool, input: unknown, output: unknown): Promise<ToolResultOutput> {
  if (tool.toModelOutput) return tool.toModelOutput(output, input)
  if (typeof output === 'string') return { type: 'text', value: output }
  return { type: 'json', value: (output ?? null) as any }
}
