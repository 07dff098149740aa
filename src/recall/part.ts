// Recall as a plugin of its runtime (SPEC §17): the search tool, history://, the protocol's recall
// line, and every appended entry handed to the index. It searches the notes memory's guard lets a
// reader see, the other parts' documents, and hides what presence says was recalled.
import PROTOCOL from './protocol.md'
import type { PartPlugin } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import { memoryPart } from '../memory/part'
import { presencePart } from '../presence/part'
import { searchTool } from '../tools/search'
import { recallSection, type RecallConfig } from './config'
import { Recall } from './recall'

export interface RecallPart extends RuntimePart {
  readonly recall: Recall
}

export const recallPart: PartPlugin<RecallConfig, RecallPart> = {
  name: 'recall',
  section: recallSection,
  create(scope) {
    const guard = scope.part(memoryPart)?.guard
    const searchable = () => scope.parts().flatMap(p => {
      const s = p.searchable?.()
      return s ? [s] : []
    })
    const recall = new Recall(scope.view, {
      config: scope.config,
      history: logger => scope.history(logger), clock: scope.clock, botName: scope.botName, searchable,
      // presence is listed after recall: looked up when a hit is checked, not now
      recalled: (channel, id) => scope.part(presencePart)?.presence.wasRecalled(channel, id) ?? false,
      ...guard ? { noteVisible: (rel, s) => guard.visible(rel, s) } : {},
    })
    return {
      name: 'recall',
      recall,
      schemes: () => recall.enabled ? [recall.scheme()] : [],
      tools: () => recall.enabled ? [['search', searchTool(recall)]] : [],
      prompt: () => recall.enabled ? { protocol: PROTOCOL } : undefined,
      appended: (key, entries) => recall.add(key, entries),
      written: () => recall.written(),
      reset: key => recall.reset(key),
      stop: () => recall.stop(),
    }
  },
}
