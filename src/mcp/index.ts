// MCP servers as tool and resource sources (SPEC §14): what the Koishi edge wires up.
export { McpManager, type McpManagerDeps } from './manager'
export type { McpServerStatus, McpState } from './connection'
export { mcpScheme } from './scheme'
