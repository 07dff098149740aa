// Who reads and writes during a turn (SPEC §22): the resources' scope of a turn, so every tool
// passes the same one (read, write, search, send_message's media, codemode's tools).
import type { ReadScope } from '../resources/types'
import type { TurnState } from './tool'

export function turnScope(turn: TurnState): ReadScope {
  return { conversation: turn.conversation, ...turn.chat ? { chat: turn.chat } : {} }
}
