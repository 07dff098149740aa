// A conversation's direct tools (SPEC §8 catalog), rebuilt when another plugin adds or removes a
// tool; built-ins first, then registered tools, each made from the narrow runtime view.
import type { CodemodeLimits } from '../config/types'
import type { VisionCache } from '../model/vision'
import { buildCatalog } from '../tools/catalog'
import type { ProgramRunner } from '../tools/codemode'
import { finishTool } from '../tools/finish'
import { readTool } from '../tools/read'
import { sendMessageTool } from '../tools/send-message'
import type { RuntimeView, Tool, ToolHost } from '../tools/types'
import { waitTool } from '../tools/wait'
import { writeTool } from '../tools/write'
import type { Extensions } from './extensions'

export interface CatalogDeps {
  view: RuntimeView
  extensions: Extensions
  limits: CodemodeLimits
  vision: VisionCache
  sandbox: ProgramRunner
}

export function toolCatalog(deps: CatalogDeps, host: ToolHost): () => Map<string, Tool> {
  let cached: { version: number; tools: Map<string, Tool> } | undefined
  return () => {
    const { extensions: ext, view } = deps
    if (cached?.version === ext.version) return cached.tools
    const all = new Map<string, Tool>([
      ['send_message', sendMessageTool(host)],
      ['read', readTool(view, deps.vision)],
      ['finish', finishTool()],
      ['wait', waitTool()],
    ])
    if (view.profile.memory?.enabled) all.set('write', writeTool(view))
    for (const [name, factory] of ext.tools) {
      try {
        const tool = factory(view)
        if (tool) all.set(name, tool)
      } catch (e: any) {
        view.logger.error('profile %s: tool "%s" could not be created: %s', view.profile.id, name, e?.message ?? e)
      }
    }
    const tools = buildCatalog(all, view.profile.codemode, deps.limits, deps.sandbox).direct
    cached = { version: ext.version, tools }
    return tools
  }
}
