// The entries a turn opens with: its turn entry, which records why it started now (merged wakes,
// the wait before it, lateness) and which the model reads as `[now: …]` (turn-line.ts) — the time
// lives in the history, where later requests repeat it, not in the system prompt (SPEC §16) —
// and the note that says why it woke.
import type { Entry } from '../history/entries'
import type { TurnRequest } from './turn-port'

/** `chat`: cross mode, the channel the turn is in ('' none) */
export function turnOpening(req: TurnRequest, turn: number, at: number, chat?: string): Entry[] {
  const why = {
    ...(req.merged && req.merged > 1 ? { merged: req.merged } : {}),
    ...(req.waitedMs ? { waitedMs: req.waitedMs } : {}),
    ...(req.late ? { late: true } : {}),
    ...(chat !== undefined ? { chat } : {}),
  }
  const opening: Entry[] = [{ type: 'turn', at, turn, reason: req.reason, ...why }]
  if (req.note) opening.push({ type: 'note', at, kind: 'wake', text: req.note })
  return opening
}
