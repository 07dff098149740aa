// The console's people view (SPEC §21): the notes a runtime keeps of people, private sections
// marked. Read-only; authority 4, as the page's other listeners. Read from the home's files, so a
// runtime that is not running is listed too.
import type { Context } from 'koishi'
import type {} from '@koishijs/plugin-console'
import { join } from 'node:path'
import { peoplePart } from '../../people/part'
import { sectionOf } from '../../part/section-config'
import { peopleNotes, type PeopleView } from '../../console-data/people'
import { placeOf } from './places'

declare module '@koishijs/console' {
  interface Events {
    'kotodama/people'(profile: string, bot: string): Promise<PeopleView>
  }
}

const AUTHORITY = 4

export function registerPeople(ctx: Context) {
  ctx.console.addListener('kotodama/people', async (profile, bot) => {
    const p = await placeOf(ctx, profile, bot)
    return { enabled: sectionOf(peoplePart.section, p.profile).enabled, people: await peopleNotes(join(p.home, 'local')) }
  }, { authority: AUTHORITY })
}
