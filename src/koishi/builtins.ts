// kotodama's own extensions, registered through the same public interface as everyone else's
// (SPEC §9): the standard wake engine, workspace://, http(s):// and, with MCP servers, mcp://.
import { standardWakeEngine } from '../attention/standard-wake'
import { httpScheme } from '../resources/schemes/http'
import { workspaceScheme } from '../resources/schemes/workspace'
import { mcpScheme, type McpManager } from '../mcp'
import type { SchemeFactory } from '../tools/types'
import type { WakeEngineFactory } from '../attention/wake-engine'

export interface Registrar {
  registerScheme(scheme: string, factory: SchemeFactory): () => void
  registerWakeEngine(name: string, factory: WakeEngineFactory): () => void
}

export function registerBuiltins(to: Registrar, mcp: McpManager): void {
  to.registerWakeEngine('standard', standardWakeEngine)
  to.registerScheme('workspace', runtime => workspaceScheme(runtime.profile.workspace.roots))
  for (const scheme of ['http', 'https'] as const) {
    to.registerScheme(scheme, runtime => httpScheme(scheme, { ...runtime.profile.http, artifacts: runtime.artifacts, resources: runtime.resources }))
  }
  if (!mcp.size) return
  to.registerScheme('mcp', runtime => mcpScheme({
    servers: runtime.profile.mcp ?? [], connection: id => mcp.connection(id), artifacts: runtime.artifacts, resources: runtime.resources,
  }))
}
