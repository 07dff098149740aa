// Where an artifact or asset belongs and who may read it (SPEC §22 "What one chat learns stays in
// that chat"). A place is a conversation key; a private chat inside a cross-mode conversation is a
// place of its own (its channel key), so a group's turn never reads what that chat made or received.
import { isDirectKey } from '../claims/channel-key'
import { clip } from '../util/clip'
import { ResourceError } from './errors'
import type { ReadScope } from './types'

/** The place what this scope makes or receives belongs to; undefined: no conversation (nowhere). */
export function placeOf(scope: ReadScope): string | undefined {
  return scope.chat?.direct ? scope.chat.channel : scope.conversation
}

/**
 * Whether a reader may see an item owned by `owners`. Unscoped (the runtime itself, the console)
 * reads everything; an item stored before owners were recorded (`undefined`) is everyone's.
 */
export function mayRead(owners: readonly string[] | undefined, scope: ReadScope | undefined): boolean {
  if (!scope || !owners) return true
  // a private chat's own items only in that chat, whatever conversation holds it; a chat reads
  // its channel's items also as part of a cross-mode conversation (kept from channel mode)
  return owners.some(o => o === scope.chat?.channel || (o === scope.conversation && !isDirectKey(o)))
}

/** What a reader that may not see it is told: the words of a name that does not exist. */
export function hidden(url: string): ResourceError {
  return new ResourceError('not_found', `${clip(url)} does not exist`)
}
