// The chat a turn is in (SPEC §22): in channel mode, the conversation's own channel. A cross-mode
// conversation spans channels: its turns get their chat from the facts that woke them.
import { isDirectKey } from '../claims/channel-key'
import type { TurnChat } from '../contract/tool'

const PRIVATE = 'private:'

/** The chat of a channel key; undefined for a cross-mode conversation ('cross'). */
export function chatOf(key: string): TurnChat | undefined {
  if (key === 'cross') return undefined
  return isDirectKey(key) ? { channel: key, direct: true, user: key.slice(PRIVATE.length) } : { channel: key, direct: false }
}
