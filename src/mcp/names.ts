// Tool names for MCP tools (SPEC §14): `<server>_<tool>`, made a valid tool name of at most 64
// characters. The AI SDK and OpenAI-compatible servers accept [A-Za-z0-9_-]; kotodama's
// registry also wants a letter or `_` first.
import { createHash } from 'node:crypto'

export const MAX_TOOL_NAME = 64
/** what a long server id keeps of its start when the name must be shortened */
const SERVER_KEEP = 16
const HASH = 8

const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_')

/**
 * The model-facing name of `tool` of `server`. Other characters become `_`; a name past 64
 * characters ends with `_` and 8 hex digits of a hash of server and tool, so two long names that
 * share a start stay apart. What is cut is the server's part first (down to its first 16
 * characters), then the tool's end: the tool's own name is what tells the model what it does.
 * `taken` (names already given) gets the hash suffix too.
 */
export function mcpToolName(server: string, tool: string, taken: ReadonlySet<string> = new Set()): string {
  let s = clean(server)
  if (!/^[A-Za-z_]/.test(s)) s = `_${s}`
  const t = clean(tool)
  const name = `${s}_${t}`
  if (name.length <= MAX_TOOL_NAME && !taken.has(name)) return name
  const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, HASH)
  const room = MAX_TOOL_NAME - HASH - 1
  const serverRoom = Math.max(Math.min(s.length, SERVER_KEEP), room - 1 - t.length)
  return `${`${s.slice(0, serverRoom)}_${t}`.slice(0, room)}_${hash}`
}
