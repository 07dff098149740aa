// Upkeep as a part (SPEC §26): once a day (upkeep.at), on kotodama.upkeep or the console's button,
// the mind looks back over each conversation with new messages and proposes changes to its notes.
// It reads the history through recall's index and writes through memory's writer, both parts
// listed before it; with either off it logs why and proposes nothing.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { platformOf } from '../claims/bot-id'
import { memoryPart } from '../memory/part'
import { VisionCache } from '../model/vision'
import type { PartPlugin } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import { recallPart } from '../recall/part'
import { readTool } from '../tools/read'
import { finishTool } from '../tools/finish'
import type { Tool } from '../contract/tool'
import { upkeepSection, type UpkeepConfig } from './config'
import { NOTE_CHARS } from './people'
import { Upkeep } from './upkeep'
import { upkeepDue } from './pending'

export interface UpkeepPart extends RuntimePart {
  readonly upkeep: Upkeep
}

export const upkeepPart: PartPlugin<UpkeepConfig, UpkeepPart> = {
  name: 'upkeep',
  section: upkeepSection,
  create(scope) {
    const { view, config } = scope
    if (!config.enabled) return undefined
    const platform = platformOf(view.bot)
    const memory = scope.part(memoryPart)
    const local = join(view.home, 'local')
    const upkeep: Upkeep = new Upkeep({
      config, home: view.home, zone: view.timezone, clock: scope.clock, logger: scope.logger, platform,
      visible: (rel, s) => memory?.guard.visible(rel, s) ?? false,
      apply: {
        platform,
        write: (url, change, s) => view.resources.write(url, change, { scope: s }),
        textOf: rel => readFile(join(local, rel), 'utf8').catch((): undefined => undefined),
      },
      async runDeps(signal) {
        const recall = scope.part(recallPart)?.recall
        if (!memory?.memory.config.enabled) return 'upkeep needs memory (memory.enabled): the notes it tends are memory\'s'
        if (!recall?.enabled) return 'upkeep needs recall (recall.enabled): it reads the history through recall\'s index'
        // what was appended lately is in the index before the run reads it
        await recall.written()
        const search = [...scope.part(recallPart)?.tools?.() ?? []].find(([name]) => name === 'search')
        const model = config.model || view.profile.model
        return {
          zone: view.timezone, platform, botName: scope.botName ?? view.profile.id, model, maxTokens: config.maxTokens,
          keys: () => scope.history().keys(),
          // a history being indexed (a start, a rebuild) is read once the index holds all of it
          index: async key => {
            const idx = await recall.index(key)
            await idx.idle()
            return idx
          },
          cross: recall.mode === 'cross', recalled: d => recall.recalled(d),
          notes: s => memory.memory.section(s),
          read: (url, s) => view.resources.read(url, { whole: true, maxBytes: NOTE_CHARS * 4, scope: s, conversation: s.conversation, signal }),
          tools: [
            ['read', readTool(view, new VisionCache(), scope.calls)], ...search ? [search] : [],
            // a model that must call a tool every step (models[].toolChoice: required) ends with finish
            ...scope.calls.handle(model)?.config.toolChoice === 'required' ? [['finish', finishTool()] as [string, Tool]] : [],
          ],
          calls: scope.calls,
          runner: { logger: scope.logger, stores: { artifacts: view.artifacts, assets: view.assets }, redact: scope.redact, signal },
        }
      },
    })
    const part: UpkeepPart = {
      name: 'upkeep',
      upkeep,
      start: () => upkeep.start(),
      stop: () => upkeep.stop(),
    }
    return part
  },
  pending: (home, config) => config.enabled ? upkeepDue(home) : Promise.resolve(false),
}
