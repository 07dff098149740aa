// What a step of a turn declares when tools are searched (SPEC §18, §16): the catalog's tools
// without the hidden ones, in the catalog's order, then the tools this turn loaded (found by
// tool_search, or called by name before they were found), in the order it loaded them. A loaded
// tool is appended, never placed among what earlier requests declared, so every request of the
// turn repeats the previous one's declarations as its prefix.
import type { Tool, TurnState } from '../contract/tool'

const hiddenOf = new WeakMap<Map<string, Tool>, ReadonlySet<string>>()

/** Marks which tools of a catalog are not declared until loaded; returns the catalog. */
export function withHidden(tools: Map<string, Tool>, hidden: ReadonlySet<string>): Map<string, Tool> {
  if (hidden.size) hiddenOf.set(tools, hidden)
  return tools
}

/** The tools a step declares (the catalog itself when nothing is hidden). */
export function stepTools(all: Map<string, Tool>, state: TurnState): Map<string, Tool> {
  const hidden = hiddenOf.get(all)
  if (!hidden) return all
  const out = new Map<string, Tool>()
  for (const [name, tool] of all) if (!hidden.has(name)) out.set(name, tool)
  for (const name of state.loaded ?? []) {
    const tool = all.get(name)
    if (tool && !out.has(name)) out.set(name, tool)
  }
  return out
}

/** The tool is declared from the next step on, for the rest of the turn. */
export function load(state: TurnState, name: string): void {
  const loaded = state.loaded ??= []
  if (!loaded.includes(name)) loaded.push(name)
}

/** Calls that ran tools the step did not declare load them. */
export function loadCalled(state: TurnState, declared: Map<string, Tool>, calls: { name: string; valid: boolean }[]): void {
  for (const c of calls) if (c.valid && !declared.has(c.name)) load(state, c.name)
}
