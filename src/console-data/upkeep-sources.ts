// The messages a proposal's sources name, for a runtime that is not running (SPEC §26): read from
// the conversation's stored history in one pass, as recall would have indexed them (docsOf), the
// newest message of an id winning as in recall's index; one its author took back is marked.
import type { HistorySide } from '../history/sides'
import { docsOf, type SelfName } from '../recall/docs'
import type { SourceMessage } from './upkeep'

export async function storedMessages(side: HistorySide, key: string, ids: readonly string[], self: SelfName): Promise<Map<string, SourceMessage>> {
  const wanted = new Set(ids)
  const found = new Map<string, SourceMessage>()
  const recalled = new Set<string>()
  // a history that is gone (reset, moved) names no message: its sources show as missing
  await side.scan(key, async entries => {
    for (const e of entries) if (e.type === 'recalled' && wanted.has(e.id)) recalled.add(e.id)
    for (const d of docsOf(entries, self)) {
      if (d.id !== null && wanted.has(d.id)) found.set(d.id, { at: d.at, who: d.who, uid: d.uid, text: d.text, ...d.self ? { self: true } : {} })
    }
  }).catch(() => {})
  for (const id of recalled) {
    const m = found.get(id)
    if (m && !m.self) m.recalled = true
  }
  return found
}
