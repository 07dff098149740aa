// Tool names for MCP tools (SPEC §14): `<server>_<tool>`, made a valid tool name of at most 64
// characters. The AI SDK and OpenAI-compatible servers accept [A-Za-z0-9_-]; kotodama's
// registry also wants a letter or `_` first.
import { createHash } from 'node:crypto'

export const MAX_TOOL_NAME = 64

/**
 * The model-facing name of `tool` of `server`. Other characters become `_`; a name past 64
 * characters keeps its start and ends with 8 hex digits of the full name's hash, so two long
 * names that share a start stay apart. `taken` (names already given) gets the hash suffix too.
 */
export function mcpToolName(server: string, tool: string, taken: ReadonlySet<string> = new Set()): string {
  let name = `${server}_${tool}`.replace(/[^A-Za-z0-9_-]/g, '_')
  if (!/^[A-Za-z_]/.test(name)) name = `_${name}`
  if (name.length <= MAX_TOOL_NAME && !taken.has(name)) return name
  const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8)
  return `${name.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`
}
