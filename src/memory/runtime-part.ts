// Memory as a part of its runtime (SPEC §13): the write tool, the protocol's memory lines and the
// memory section of the system prompt, a look for the owner's edits before each turn.
import type { RuntimePart } from '../part/runtime-part'
import { writeTool } from '../tools/write'
import type { RuntimeView } from '../tools/types'
import type { Memory } from './memory'

export function memoryPart(memory: Memory, view: RuntimeView): RuntimePart {
  const on = () => memory.config.enabled
  return {
    name: 'memory',
    tools: () => on() ? [['write', writeTool(view)]] : [],
    prompt(scope) {
      if (!on()) return undefined
      const section = memory.section(scope)
      return { flags: { memory: true, memorySection: !!section }, section }
    },
    beforeTurn: () => memory.prepare(),
    stop: () => memory.idle(),
  }
}
