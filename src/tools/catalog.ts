// Which tools the model calls directly and which only from programs (SPEC §8).
import type { CodemodeLimits } from '../config/types'
import { codemodeTool, type ProgramRunner } from './codemode'
import type { TurnModules } from './program-modules'
import type { Tool } from '../contract/tool'
import { BUILTIN_TOOLS, isBuiltinTool } from '../contract/builtin-names'

/** Always direct, never in the sandbox. */
const resident = (name: string) => isBuiltinTool(name) && BUILTIN_TOOLS[name] === 'direct'
/** Direct and in the sandbox (SPEC §8, §13, §17, §18). */
const both = (name: string) => isBuiltinTool(name) && BUILTIN_TOOLS[name] === 'both'

export interface Catalog {
  direct: Map<string, Tool>
  sandbox: Map<string, Tool>
}

/** `hidden`: tools found with tool_search (SPEC §18); programs may call them, the codemode tool does not declare them. */
export function buildCatalog(
  all: Map<string, Tool>, codemode: { enabled: boolean; direct: string[] }, limits: CodemodeLimits, runner: ProgramRunner, hidden?: ReadonlySet<string>,
  modules?: TurnModules,
): Catalog {
  if (!codemode.enabled) return { direct: all, sandbox: new Map() }
  const sandbox = new Map([...all].filter(([name]) => !resident(name)))
  const direct = new Map<string, Tool>()
  for (const [name, tool] of all) {
    if (resident(name) || both(name) || codemode.direct.includes(name)) direct.set(name, tool)
  }
  direct.set('codemode', codemodeTool(sandbox, limits, runner, hidden, modules))
  return { direct, sandbox }
}
