// People as a plugin of its runtime (SPEC §21, docs/people.md): who is present in a conversation
// and their notes in a turn's opening; who has written where (memory's guard reads it, SPEC §22).
import { join } from 'node:path'
import type { PartPlugin } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import { peopleSection, type PeopleConfig } from './config'
import { peopleOpenings } from './people-part'
import { Writers } from './writers'
import { RecentSpeakers, type SpeakerLookup } from './speakers'

export interface PeoplePart extends RuntimePart {
  /** who has written in each conversation: recorded whether the part is on or not */
  readonly writers: Writers
  /** who spoke lately where, by name: memory's refusals under people/ name the note meant (SPEC §27) */
  readonly speakers: SpeakerLookup
}

/** memory's switch: without the write tool the mind keeps no notes, and the part shows none */
const memoryOn = (profile: object) => (profile as { memory?: { enabled?: boolean } }).memory?.enabled !== false

export const peoplePart: PartPlugin<PeopleConfig, PeoplePart> = {
  name: 'people',
  section: peopleSection,
  create(scope) {
    const { view } = scope
    const writers = new Writers(view.home, scope.logger)
    const speakers = new RecentSpeakers()
    const root = join(view.home, 'local')
    const part = peopleOpenings({ config: scope.config, root, bot: view.bot, memory: memoryOn(view.profile), writers, speakers })
    return {
      ...part, writers, speakers,
      written: () => writers.idle(),
      stop: () => writers.idle(),
    }
  },
}
