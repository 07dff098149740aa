// A conversation's direct tools (SPEC §8 catalog), rebuilt when another plugin adds or removes a
// tool; built-ins first, then registered tools (made once per runtime from its narrow view), then
// tool_search when they are many (SPEC §18).
import type { CodemodeLimits } from '../config/types'
import type { VisionCache } from '../model/vision'
import type { CallPort } from '../model/calls'
import { buildCatalog } from '../tools/catalog'
import { skillModules } from '../tools/program-modules'
import type { ProgramRunner } from '../tools/codemode'
import { finishTool } from '../tools/finish'
import { readTool } from '../tools/read'
import { sendMessageTool } from '../tools/send-message'
import type { RuntimeView, ToolHost } from '../tools/types'
import type { Tool } from '../contract/tool'
import { planSearch, TOOL_SEARCH, withHidden, type SearchPlan } from '../tool-search'
import { waitTool } from '../tools/wait'
import type { Extensions } from './extensions'
import { guardOwnerTools } from '../trust/owner-only'

export interface CatalogDeps {
  view: RuntimeView
  extensions: Extensions
  limits: CodemodeLimits
  vision: VisionCache
  /** the runtime's model calls: vision questions are counted and fail over like steps */
  calls: CallPort
  sandbox: ProgramRunner
  /** the runtime's registered tools, and whether they are searched (registeredTools) */
  registered(): SearchPlan
  /** the tools the runtime's parts add (memory's write, recall's search), made when the catalog is */
  partTools?(): [string, Tool][]
  /** `trust.tools`: only the bot owner's people may trigger them, directly or from a program (SPEC §22) */
  ownerOnly?: ReadonlySet<string>
}

export function toolCatalog(deps: CatalogDeps, host: ToolHost): () => Map<string, Tool> {
  let cached: { version: number; tools: Map<string, Tool> } | undefined
  return () => {
    const { extensions: ext, view } = deps
    if (cached?.version === ext.version) return cached.tools
    const all = new Map<string, Tool>([['send_message', sendMessageTool(host)], ...sharedBuiltins(deps)])
    for (const [name, tool] of deps.partTools?.() ?? []) all.set(name, tool)
    const plan = deps.registered()
    for (const [name, tool] of plan.tools) all.set(name, tool)
    if (plan.searchTool) all.set(TOOL_SEARCH, plan.searchTool)
    if (deps.ownerOnly) guardOwnerTools(all, deps.ownerOnly)
    const tools = withHidden(buildCatalog(all, view.profile.codemode, deps.limits, deps.sandbox, plan.hidden, skillModules(view.resources)).direct, plan.hidden)
    cached = { version: ext.version, tools }
    return tools
  }
}

// read, finish and wait hold nothing of a conversation (it comes with each call): one of each per
// runtime, so their JSON Schemas are made once rather than for every new conversation.
const builtins = new WeakMap<RuntimeView, { vision: VisionCache; calls: CallPort; tools: [string, Tool][] }>()

function sharedBuiltins({ view, vision, calls }: CatalogDeps): [string, Tool][] {
  let made = builtins.get(view)
  if (made?.vision !== vision || made.calls !== calls) {
    builtins.set(view, made = { vision, calls, tools: [['read', readTool(view, vision, calls)], ['finish', finishTool()], ['wait', waitTool()]] })
  }
  return made.tools
}

/**
 * The tools other plugins and MCP servers registered, made once per registry version for the
 * whole runtime (a factory sees only the runtime's view), and whether they are declared or found
 * with tool_search (SPEC §18); the runtime's conversations share them.
 */
export function registeredTools(view: RuntimeView, ext: Extensions): () => SearchPlan {
  let cached: { version: number; plan: SearchPlan } | undefined
  return () => {
    if (cached?.version === ext.version) return cached.plan
    const made = new Map<string, Tool>()
    for (const [name, factory] of ext.tools) {
      try {
        const tool = factory(view)
        if (tool) made.set(name, tool)
      } catch (e: any) {
        view.logger.error('profile %s: tool "%s" could not be created: %s', view.profile.id, name, e?.message ?? e)
      }
    }
    cached = { version: ext.version, plan: planSearch(view.profile, made) }
    return cached.plan
  }
}
