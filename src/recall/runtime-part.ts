// Recall as a part of its runtime (SPEC §17): the search tool, history://, the protocol's recall
// line, and every appended entry handed to the index.
import type { RuntimePart } from '../part/runtime-part'
import { searchTool } from '../tools/search'
import type { Recall } from './recall'

export function recallPart(recall: Recall): RuntimePart {
  return {
    name: 'recall',
    schemes: () => recall.enabled ? [recall.scheme()] : [],
    tools: () => recall.enabled ? [['search', searchTool(recall)]] : [],
    prompt: () => recall.enabled ? { flags: { recall: true } } : undefined,
    appended: (key, entries) => recall.add(key, entries),
    written: () => recall.written(),
    reset: key => recall.reset(key),
    stop: () => recall.stop(),
  }
}
