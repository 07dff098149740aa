// What a cross-mode turn may see of its conversation (SPEC §22 "What one chat learns stays in that
// chat"): every group's facts, and a private chat's facts, the turns held in it (their steps: the
// mind's sends there, its tool results) and its media only when the turn is in that private chat.
// A group turn sees the groups alone. Filtered before the window is picked, so nothing hidden
// counts toward it.
import { isDirectKey } from '../claims/channel-key'
import type { TurnChat } from '../contract/tool'
import type { Entry } from '../history/entries'
import { factAttachmentId } from '../history/recalled'
import { turnChannel } from './turn-chat'

export function chatEntries(entries: Entry[], chat: TurnChat | undefined): Entry[] {
  const own = chat?.direct ? chat.channel : undefined
  const hidden = (channel: string | undefined) => !!channel && isDirectKey(channel) && channel !== own
  const out: Entry[] = []
  const hiddenMedia = new Set<string>()
  // inside a turn held in another private chat: its opening, steps, media and wait are hidden
  let inHiddenTurn = false
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]
    if (e.type === 'turn') inHiddenTurn = hidden(turnChannel(entries, i))
    if (e.type === 'fact') {
      if (!hidden(e.fact.channel)) out.push(e)
      else hiddenMedia.add(factAttachmentId(e.fact))
      continue
    }
    if (e.type === 'transcript') {
      if (!hidden(e.message.channel)) out.push(e)
      continue
    }
    if (e.type === 'attachments' && e.source === 'fact') {
      if (!hiddenMedia.has(e.id)) out.push(e)
      continue
    }
    if (!inHiddenTurn) out.push(e)
  }
  return out.length === entries.length ? entries : out
}
