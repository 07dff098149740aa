// Platform presence as a plugin of its runtime (SPEC §19): recalls, bans and the owner's pauses,
// kept in the home's mutes.json and recalled.json (loaded once the runtime holds its home); the
// mind may not speak where one holds, and status and the console show it. Reactions people add
// (SPEC §23) are gathered here per message and stored as facts that never wake.
import type { PartPlugin } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import { RuntimePresence } from './presence'
import { ReactionGather } from './reactions'

/** how long reactions to one message are gathered into one fact */
export const REACTION_WINDOW_MS = 60_000

export interface PresencePart extends RuntimePart {
  readonly presence: RuntimePresence
  readonly reactions: ReactionGather
}

export const presencePart: PartPlugin<unknown, PresencePart> = {
  name: 'presence',
  create(scope) {
    const { view } = scope
    const presence = new RuntimePresence({
      home: view.home, clock: scope.clock, logger: scope.logger, who: `profile ${view.profile.id} on ${view.bot}`, zone: view.timezone,
      conversationOf: channel => scope.conversationOf(channel),
      append: (conversation, entries) => scope.append(conversation, entries),
    })
    const reactions = new ReactionGather({
      clock: scope.clock, windowMs: REACTION_WINDOW_MS, conversationOf: channel => scope.conversationOf(channel),
      store: fact => scope.receive(fact),
      failed: e => scope.logger.debug('profile %s: reactions could not be stored: %s', view.profile.id, (e as Error)?.message ?? e),
    })
    return {
      name: 'presence',
      presence,
      reactions,
      start: () => presence.load(),
      // the turn reads the reactions gathered so far
      beforeTurn: key => reactions.flush(key),
      muted: channel => presence.isMuted(channel),
      status: key => {
        const m = presence.mutedUntil(key)
        return m ? { muted: { until: m.until, by: m.by } } : undefined
      },
      reset: async key => { reactions.drop(key) },
      stop: () => {
        // the ports refuse from now: tallies still open are lost (at most a window of reactions)
        const lost = reactions.drop()
        if (lost) scope.logger.debug('profile %s: %d reaction tallies still open were not stored', view.profile.id, lost)
        return presence.stop()
      },
    }
  },
}
