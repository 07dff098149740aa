// `trust.tools` (SPEC §22): tools only the bot owner's people may trigger. Each is wrapped where the
// catalog is made, so the check runs wherever the tool runs: a direct call and a codemode program's
// call alike. A refused call returns NotAllowed and the tool never runs.
import type { Tool } from '../contract/tool'
import { allowed, notAllowed, type NotAllowed } from './permission'

const REFUSED = Symbol('refused')
type Refusal = NotAllowed & { [REFUSED]: true }

const refused = (v: unknown): v is Refusal => typeof v === 'object' && v !== null && REFUSED in v

/** `tool` guarded: it runs only when every author of the turn's waking facts is the bot owner's. */
export function ownerOnly(name: string, tool: Tool): Tool {
  return {
    ...tool,
    async execute(input, ctx) {
      if (!await allowed(ctx.turn, 'owner')) return { ...notAllowed('owner', `the tool "${name}"`), [REFUSED]: true }
      return tool.execute(input, ctx)
    },
    // a refusal is shown as itself, not through the tool's own presentation
    ...tool.toModelOutput && {
      toModelOutput: (output, input) => refused(output) ? { type: 'text', value: JSON.stringify(plain(output)) } : tool.toModelOutput!(output, input),
    },
    ...tool.present && {
      present: (output, input, exit) => refused(output) ? exit.plain(plain(output)) : tool.present!(output, input, exit),
    },
  }
}

const plain = (r: Refusal): NotAllowed => ({ ok: r.ok, error: r.error })

/** The catalog with each tool named in `names` guarded (in place). */
export function guardOwnerTools(tools: Map<string, Tool>, names: ReadonlySet<string>): Map<string, Tool> {
  if (!names.size) return tools
  for (const [name, tool] of tools) if (names.has(name)) tools.set(name, ownerOnly(name, tool))
  return tools
}
