// People as a plugin of its runtime (SPEC §21, docs/people.md): who is present in a conversation
// and their notes in a turn's opening; who has written where (memory's guard reads it, SPEC §22).
import { join } from 'node:path'
import type { PartPlugin } from '../part/plugin'
import type { RuntimePart } from '../part/runtime-part'
import { peopleSection, type PeopleConfig } from './config'
import { peopleOpenings } from './people-part'
import { Writers } from './writers'

export interface PeoplePart extends RuntimePart {
  /** who has written in each conversation: recorded whether the part is on or not */
  readonly writers: Writers
}

/** memory's switch: without the write tool the mind keeps no notes, and the part shows none */
const memoryOn = (profile: object) => (profile as { memory?: { enabled?: boolean } }).memory?.enabled !== false

export const peoplePart: PartPlugin<PeopleConfig, PeoplePart> = {
  name: 'people',
  section: peopleSection,
  create(scope) {
    const { view } = scope
    const writers = new Writers(view.home, scope.logger)
    const part = peopleOpenings({ config: scope.config, root: join(view.home, 'local'), bot: view.bot, memory: memoryOn(view.profile), writers })
    return {
      ...part, writers,
      written: () => writers.idle(),
      stop: () => writers.idle(),
    }
  },
}
