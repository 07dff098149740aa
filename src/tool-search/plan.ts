// Whether a runtime's registered tools (other plugins' and MCP servers', built-ins aside) are
// declared in every request or found with tool_search (SPEC §18): searched when there are more
// than `tools.searchAbove` of them, or their declarations (name, description, JSON Schema) hold
// more than SEARCH_ABOVE_CHARS UTF-16 units. Tools named in `codemode.direct` keep their direct
// entry either way (and tool_search finds them too).
import { DEFAULT_TOOLS, SEARCH_ABOVE_CHARS } from '../config/defaults'
import type { ProfileConfig } from '../config/types'
import { declaredChars } from '../model/context-size'
import type { Tool } from '../contract/tool'
import { sourceLines } from './summary'
import { toolSearchTool } from './tool'

export interface SearchPlan {
  /** the registered tools of this registry version */
  tools: Map<string, Tool>
  /** those not declared until a turn loads them (empty: every tool is declared) */
  hidden: ReadonlySet<string>
  /** tool_search, when tools are searched */
  searchTool?: Tool
  /** the system prompt's lines: one per source of hidden tools */
  sources?: string
}

const NOTHING: ReadonlySet<string> = new Set()

export function planSearch(profile: Pick<ProfileConfig, 'tools' | 'codemode'>, tools: Map<string, Tool>): SearchPlan {
  const above = profile.tools?.searchAbove ?? DEFAULT_TOOLS.searchAbove
  if (tools.size <= above && declaredChars(tools) <= SEARCH_ABOVE_CHARS) return { tools, hidden: NOTHING }
  const direct = profile.codemode.enabled ? profile.codemode.direct : []
  const hidden = new Set([...tools.keys()].filter(name => !direct.includes(name)))
  if (!hidden.size) return { tools, hidden: NOTHING }
  return {
    tools, hidden, sources: sourceLines(tools, hidden),
    searchTool: toolSearchTool({ tools, hidden, codemode: profile.codemode.enabled }),
  }
}
