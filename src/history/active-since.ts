// The stored conversations active since a time (a start or a reconnect pulls only these, SPEC §19):
// a file's last change where the storage tells it, else the newest stored entry's time.
import type { HistorySide } from './sides'

export async function activeSince(side: HistorySide, since: number): Promise<string[]> {
  const found: string[] = []
  for (const s of await side.stored()) {
    if (s.modifiedAt !== undefined) {
      if (s.modifiedAt >= since) found.push(s.key)
      continue
    }
    // the database tells no time without reading: the newest row, one indexed query a conversation
    const at = (await side.peek(s.key, 1)).entries.at(-1)?.at
    if (at === undefined || at >= since) found.push(s.key)
  }
  return found
}
