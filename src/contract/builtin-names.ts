// The names kotodama keeps for itself, in one list: other plugins may not register a tool or a
// scheme of these (SPEC §9), MCP tools are named around them (SPEC §14), and codemode places each
// built-in tool by it (SPEC §8).

/**
 * Every built-in tool and where codemode offers it: `direct` to the model only, `both` to the
 * model and to programs, `program` to programs only (the model reads through them).
 */
export const BUILTIN_TOOLS = {
  send_message: 'both',
  read: 'program',
  write: 'both',
  finish: 'direct',
  wait: 'direct',
  codemode: 'direct',
  tool_search: 'both',
  search: 'both',
  schedule: 'both',
} as const

export type BuiltinTool = keyof typeof BUILTIN_TOOLS
export const BUILTIN_TOOL_NAMES: readonly string[] = Object.keys(BUILTIN_TOOLS)

export function isBuiltinTool(name: string): name is BuiltinTool {
  return Object.hasOwn(BUILTIN_TOOLS, name)
}

/** Schemes every runtime serves itself: asset://, artifact://, local://, recall's history:// (SPEC §17), the stickers' sticker:// (SPEC §19), web:// (§24). */
export const RESERVED_SCHEMES: readonly string[] = ['asset', 'artifact', 'local', 'history', 'sticker', 'web']
