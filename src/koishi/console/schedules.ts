// The console's schedules view (SPEC §25): a runtime's open tasks grouped by conversation, with a
// cancel. Authority 4, as the page's other listeners. A running runtime goes through its schedules
// part (its timer forgets a cancelled task at once); one that is not running is read and changed where
// it keeps them: its home's schedules.json, or its rows of Koishi's database.
import type { Context } from 'koishi'
import type {} from '@koishijs/plugin-console'
import { schedulesPart } from '../../schedules/part'
import { cancelAtHome, tasksAtHome } from '../../schedules/at-home'
import { schedulesView, type ScheduleCancelResult, type SchedulesView } from '../../console-data/schedules'
import { placeOf, type Place } from './places'

declare module '@koishijs/console' {
  interface Events {
    'kotodama/schedules'(profile: string, bot: string): Promise<SchedulesView>
    'kotodama/schedule-cancel'(profile: string, bot: string, id: string): Promise<ScheduleCancelResult>
  }
}

const AUTHORITY = 4

export function registerSchedules(ctx: Context) {
  /** where a runtime that is not running keeps its tasks: its home's file, or its rows under storage: database */
  const records = (p: Place) => {
    if (ctx.kotodama.storageOf(p.profile, p.bot) !== 'database') return undefined
    const found = ctx.kotodama.recordsOf(p.profile, p.bot)
    if (!found) throw new Error(`the tasks of ${p.profile.id} on ${p.bot} are kept in Koishi's database, which is not loaded`)
    return found
  }
  const zone = () => ctx.kotodama.checked.budgets.timezone

  ctx.console.addListener('kotodama/schedules', async (profile, bot) => {
    const p = await placeOf(ctx, profile, bot)
    if (p.runtime) return schedulesView(p.runtime.part(schedulesPart)?.all() ?? [], p.runtime.view.timezone)
    return schedulesView(await tasksAtHome(p.home, records(p)), zone())
  }, { authority: AUTHORITY })

  ctx.console.addListener('kotodama/schedule-cancel', async (profile, bot, id) => {
    const p = await placeOf(ctx, profile, bot)
    const schedules = p.runtime?.part(schedulesPart)
    if (p.runtime && !schedules) return { ok: false, error: { name: 'NotFound', message: `schedules are off for ${profile}` } }
    const done = schedules ? await schedules.cancel(id) : await cancelAtHome(p.home, id, ctx.kotodama.log, records(p))
    return 'ok' in done ? { ok: true } : { ok: false, error: { name: done.name, message: done.message } }
  }, { authority: AUTHORITY })
}
