// A conversation's attention (attention/attention.ts) wired to it: a wake starts its turn, the
// judge reads its last lines of chat, a muted channel is asked about (its own when a wake names
// none), and a declined wake is logged and kept in its history.
import { Attention } from '../attention/attention'
import type { TurnStart } from '../attention/gate'
import type { TurnAuthor } from '../contract/authors'
import type { Entry } from '../history/entries'
import type { ConversationDeps } from './conversation-deps'

/** lines of chat the judge reads */
const JUDGE_LINES = 12

/** What the attention needs of its conversation beyond what the runtime gave it. */
export interface AttentionSide {
  start(turn: TurnStart): void
  recentLines(count: number): string[]
  /** who wrote the facts that would wake the turn (they pay for the judge, SPEC §22) */
  authors(): TurnAuthor[]
  append(entries: Entry[]): void
}

export function conversationAttention(deps: ConversationDeps, c: AttentionSide): Attention {
  const { key } = deps
  return new Attention({
    profile: deps.profile, clock: deps.clock,
    start: req => c.start(req),
    judge: deps.judge && (reason => deps.judge!({ reason, lines: c.recentLines(JUDGE_LINES), authors: c.authors() })),
    muted: deps.muted && (channel => deps.muted!(channel ?? key)),
    declined: (reason, why) => {
      deps.logger.debug('conversation %s: a wake (%s) was declined: %s', key, reason, why)
      c.append([{ type: 'declined', at: deps.clock.now(), reason, why }])
    },
  })
}
