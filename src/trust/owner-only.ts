// `trust.tools` (SPEC §22): tools only the bot owner's people may trigger. Each is wrapped where the
// catalog is made, so the check runs wherever the tool runs: a direct call and a codemode program's
// call alike. A refused call returns NotAllowed and the tool never runs.
import type { Tool } from '../contract/tool'
import { allowed, notAllowed, type NotAllowed } from './permission'

/** the refusals this guard returned (a tool's own result may look alike) */
const REFUSALS = new WeakSet<object>()

const refused = (v: unknown): v is NotAllowed => typeof v === 'object' && v !== null && REFUSALS.has(v)

function refusal(name: string): NotAllowed {
  const r = notAllowed('owner', `the tool "${name}"`)
  REFUSALS.add(r)
  return r
}

/**
 * `tool` guarded: it runs only when every author of the turn's waking facts is the bot owner's.
 * The guard inherits from the tool (a registered tool may be a class instance: nothing is copied).
 */
export function ownerOnly(name: string, tool: Tool): Tool {
  const guarded: Tool = Object.create(tool)
  guarded.execute = async (input, ctx) => await allowed(ctx.turn, 'owner') ? tool.execute(input, ctx) : refusal(name)
  // a refusal is shown as itself, not through the tool's own presentation
  if (tool.toModelOutput) {
    guarded.toModelOutput = (output, input) => refused(output) ? { type: 'text', value: JSON.stringify(output) } : tool.toModelOutput!(output, input)
  }
  if (tool.present) guarded.present = (output, input, exit) => refused(output) ? exit.plain(output) : tool.present!(output, input, exit)
  return guarded
}

/** The catalog with each tool named in `names` guarded (in place). */
export function guardOwnerTools(tools: Map<string, Tool>, names: ReadonlySet<string>): Map<string, Tool> {
  if (!names.size) return tools
  for (const [name, tool] of tools) if (names.has(name)) tools.set(name, ownerOnly(name, tool))
  return tools
}
