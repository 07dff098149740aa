// The names kotodama keeps for itself: other plugins may not register a tool or a scheme of these (SPEC §9).
export const RESERVED_SCHEMES = ['asset', 'artifact', 'local']
export const BUILTIN_TOOLS: readonly string[] = ['send_message', 'read', 'write', 'finish', 'wait', 'codemode', 'tool_search']
