// Platform presence as a plugin of its runtime (SPEC §19): recalls, bans and the owner's pauses,
// kept in the home's mutes.json and recalled.json (loaded once the runtime holds its home); the
// mind may not speak where one holds, and status and the console show it.
import type { PartPlugin } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import { RuntimePresence } from './presence'

export interface PresencePart extends RuntimePart {
  readonly presence: RuntimePresence
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
    return {
      name: 'presence',
      presence,
      start: () => presence.load(),
      muted: channel => presence.isMuted(channel),
      status: key => {
        const m = presence.mutedUntil(key)
        return m ? { muted: { until: m.until, by: m.by } } : undefined
      },
      stop: () => presence.stop(),
    }
  },
}
