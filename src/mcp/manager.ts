// The plugin's MCP servers (SPEC §14): one connection each, started and stopped together. Each
// server's tools are offered through the extension registry as `<server>_<tool>`, replaced
// whenever the server lists new ones; a runtime gets them when its profile names the server.
import type { Tool as McpToolDef } from '@modelcontextprotocol/sdk/types.js'
import type { McpServerConfig } from '../config/types'
import { BUILTIN_TOOL_NAMES } from '../contract/builtin-names'
import { type ToolFactory } from '../tools/types'
import { McpConnection, type ConnectionDeps, type McpServerStatus } from './connection'
import { mcpInputSchema } from './input-schema'
import { mcpToolName } from './names'
import { mcpTool } from './tool'

export interface McpManagerDeps extends ConnectionDeps {
  /** adds a tool to every runtime's catalog; returns its removal */
  addTool(name: string, factory: ToolFactory): () => void
}

export class McpManager {
  private connections = new Map<string, McpConnection>()
  /** removals of the tools each server offers now */
  private offered = new Map<string, (() => void)[]>()
  /** told when a server's state or tools changed */
  private watchers = new Set<() => void>()
  /** the names each server's tools are offered under now */
  private names = new Map<string, Set<string>>()

  constructor(servers: Iterable<McpServerConfig>, private deps: McpManagerDeps) {
    for (const config of servers) {
      const connection = new McpConnection(config, deps)
      connection.onTools = tools => this.offer(connection, tools)
      connection.onChange = () => this.watchers.forEach(w => w())
      this.connections.set(config.id, connection)
    }
  }

  get size(): number {
    return this.connections.size
  }

  start(): void {
    for (const c of this.connections.values()) c.start()
  }

  connection(id: string): McpConnection | undefined {
    return this.connections.get(id)
  }

  status(): McpServerStatus[] {
    return [...this.connections.values()].map(c => c.status())
  }

  /** Calls `fn` whenever a server's status changed; returns the unsubscribe. */
  watch(fn: () => void): () => void {
    this.watchers.add(fn)
    return () => this.watchers.delete(fn)
  }

  private offer(connection: McpConnection, tools: McpToolDef[]): void {
    this.withdraw(connection.id)
    // names other servers use count as taken ('a.b' + 'c' and 'a' + 'b.c' both make a_b_c), and
    // kotodama's own tools (server 'send' + tool 'message' is not send_message)
    const others = [...this.names].filter(([id]) => id !== connection.id).flatMap(([, n]) => [...n])
    const taken = new Set<string>([...BUILTIN_TOOL_NAMES, ...others])
    const mine = new Set<string>()
    const removals: (() => void)[] = []
    for (const def of tools) {
      const name = mcpToolName(connection.id, def.name, taken)
      taken.add(name)
      mine.add(name)
      const schema = mcpInputSchema(def.inputSchema)
      try {
        removals.push(this.deps.addTool(name, view => view.profile.mcp?.includes(connection.id) ? mcpTool(connection, def, schema) : undefined))
      } catch (e: any) {
        this.deps.logger.warn('MCP server "%s": tool "%s" is left out: %s', connection.id, def.name, e?.message ?? e)
      }
    }
    this.offered.set(connection.id, removals)
    this.names.set(connection.id, mine)
  }

  private withdraw(id: string): void {
    this.offered.get(id)?.forEach(remove => remove())
    this.offered.delete(id)
    this.names.delete(id)
  }

  /** Stops every server; resolves when their child processes are gone. */
  async stop(): Promise<void> {
    for (const id of this.offered.keys()) this.withdraw(id)
    await Promise.all([...this.connections.values()].map(c => c.stop()))
  }
}
