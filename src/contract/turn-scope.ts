// Who reads and writes during a turn (SPEC §22): the resources' scope of a turn, so every tool
// passes the same one (read, write, search, send_message's media, codemode's tools).
import { CROSS_CONVERSATION, isDirectKey } from '../claims/channel-key'
import type { ReadScope } from '../resources/types'
import type { TurnChat, TurnState } from './tool'

const PRIVATE = 'private:'

/** The chat of a channel-mode conversation (its key); undefined for a cross-mode one ('cross'), whose turns get theirs from their facts. */
export function chatOf(key: string): TurnChat | undefined {
  if (key === CROSS_CONVERSATION) return undefined
  return isDirectKey(key) ? { channel: key, direct: true, user: key.slice(PRIVATE.length) } : { channel: key, direct: false }
}

export function turnScope(turn: TurnState): ReadScope {
  return { conversation: turn.conversation, ...turn.chat ? { chat: turn.chat } : {} }
}
