// Memory as a plugin of its runtime (SPEC §13): local:// (its writer, quotas and the guard of what
// one chat may see, SPEC §22), the write tool, the protocol's memory lines and the memory section of
// the system prompt, a look for the owner's edits before each turn.
import PROTOCOL from './protocol.md'
import { join } from 'node:path'
import type { PartPlugin } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import { peoplePart } from '../people/part'
import { PEOPLE_DIR } from '../people/people-path'
import { platformOf } from '../claims/bot-id'
import { Writers } from '../people/writers'
import { localScheme } from '../resources/schemes/local'
import { writeTool } from '../tools/write'
import { memorySection, type MemoryConfig } from './config'
import { LocalPrivacy } from './local-privacy'
import { Memory } from './memory'
import { PrivateFiles } from './private-files'

export interface MemoryPart extends RuntimePart {
  readonly memory: Memory
  /** what one chat may see of local:// (recall's search of notes asks it too) */
  readonly guard: LocalPrivacy
}

export const memoryPart: PartPlugin<MemoryConfig, MemoryPart> = {
  name: 'memory',
  section: memorySection,
  create(scope) {
    const { view } = scope
    const root = join(view.home, 'local')
    // people come first in the list: who wrote where decides whose notes a chat sees
    const people = scope.part(peoplePart)
    const writers = people?.writers ?? new Writers(view.home, scope.logger)
    const guard = new LocalPrivacy(platformOf(view.bot), new PrivateFiles(view.home, root, scope.logger), writers, people?.speakers)
    const config = scope.config
    // people/ is left out of the index (people on or off, the system prompt is the same, SPEC §21)
    const unlisted = (rel: string) => rel.startsWith(`${PEOPLE_DIR}/`)
    const memory = new Memory({ root, config, texts: scope.texts, logger: scope.logger, guard, unlisted, clock: scope.clock })
    const on = () => memory.config.enabled
    return {
      name: 'memory',
      memory,
      guard,
      schemes: () => {
        const d = memory.schemeDeps()
        return [localScheme(d.localRoot, d.localWrite, d.localGuard)]
      },
      tools: () => on() ? [['write', writeTool(view)]] : [],
      prompt(s) {
        if (!on()) return undefined
        const section = memory.section(s)
        return { protocol: PROTOCOL, section }
      },
      beforeTurn: () => memory.prepare(),
      start: async () => memory.startTrash(),
      stop: () => {
        memory.keeper.stop()
        return memory.idle()
      },
    }
  },
}
