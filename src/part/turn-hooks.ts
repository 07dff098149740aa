// The parts' hooks around a conversation's turns, called in list order: prepared before a turn,
// their lines of its opening note, and told of appended entries. A part that throws is reported
// through `logged` and the others go on.
import type { Entry } from '../history/entries'
import type { RuntimePart } from './runtime-part'

export type PartFailed = (part: RuntimePart, what: string, e: unknown) => void

/** Before a turn of `key`: each part prepares, then its lines of the opening note. */
export async function openTurn(parts: readonly RuntimePart[], key: string, logged: PartFailed): Promise<string[]> {
  // only parts with a hook are awaited, and an opening answered at once is not wrapped in a promise:
  // this runs before every turn (bench 6, turn overhead)
  for (const p of parts) if (p.beforeTurn) await p.beforeTurn(key).catch(e => logged(p, 'could not prepare a turn', e))
  const lines: string[] = []
  for (const p of parts) {
    if (!p.opening) continue
    let line: string | undefined
    try {
      const opened = p.opening(key)
      line = opened instanceof Promise ? await opened : opened
    } catch (e) {
      logged(p, 'could not open a turn', e)
    }
    if (line) lines.push(line)
  }
  return lines
}

/** `key` appended `entries`: each part is told, as they are appended. */
export function tellAppended(parts: readonly RuntimePart[], key: string, entries: readonly Entry[], logged: PartFailed): void {
  for (const p of parts) {
    try {
      p.appended?.(key, entries)
    } catch (e) {
      logged(p, 'missed appended entries', e)
    }
  }
}
