// `trust.tools` names tools as they are declared to the model (SPEC §22). A name that matches no
// tool guards nothing: the owner meant some tool and misspelled it, so it is reported once at start.
import { BUILTIN_TOOL_NAMES } from '../contract/builtin-names'

export interface KnownTools {
  /** tools other plugins registered so far */
  registered: Iterable<string>
  /** the start of every configured MCP server's tool names (`<server>_`): their tools are listed only once they connect */
  mcpPrefixes: readonly string[]
}

/** Each `trust.tools` entry that names no built-in, registered or MCP tool: its field path and why. */
export function unmatchedTrustTools(names: readonly string[], known: KnownTools): { path: string; message: string }[] {
  const tools = new Set([...BUILTIN_TOOL_NAMES, ...known.registered])
  const matches = (name: string) => tools.has(name) || known.mcpPrefixes.some(p => name.startsWith(p) && name.length > p.length)
  return names.flatMap((name, i) => matches(name) ? [] : [{
    path: `trust.tools[${i}]`,
    message: `"${name.slice(0, 64)}" names no tool (built-in, registered or MCP); it guards nothing`,
  }])
}
