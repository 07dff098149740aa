// The plugin's MCP servers (SPEC §14): one connection each, started and stopped together. Each
// server's tools are offered through the extension registry as `<server>_<tool>`, replaced
// whenever the server lists new ones; a runtime gets them when its profile names the server.
import type { Tool as McpToolDef } from '@modelcontextprotocol/sdk/types.js'
import type { McpServerConfig } from '../config/types'
import type { ToolFactory } from '../runtime/extensions'
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
    const taken = new Set<string>()
    const removals: (() => void)[] = []
    for (const def of tools) {
      const name = mcpToolName(connection.id, def.name, taken)
      taken.add(name)
      const schema = mcpInputSchema(def.inputSchema)
      try {
        removals.push(this.deps.addTool(name, view => view.profile.mcp?.includes(connection.id) ? mcpTool(connection, def, schema) : undefined))
      } catch (e: any) {
        this.deps.logger.warn('MCP server "%s": tool "%s" is left out: %s', connection.id, def.name, e?.message ?? e)
      }
    }
    this.offered.set(connection.id, removals)
  }

  private withdraw(id: string): void {
    this.offered.get(id)?.forEach(remove => remove())
    this.offered.delete(id)
  }

  /** Stops every server; resolves when their child processes are gone. */
  async stop(): Promise<void> {
    for (const id of this.offered.keys()) this.withdraw(id)
    await Promise.all([...this.connections.values()].map(c => c.stop()))
  }
}
