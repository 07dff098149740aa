// kotodama.schedules (SPEC §25, authority 3): the open tasks of the conversation where it is written,
// soonest first, as the mind lists them (times in budgets.timezone). It starts the runtime as
// kotodama.pause does: the tasks are wherever the running runtime keeps them (home or database).
import type { Context } from 'koishi'
import { schedulesPart } from '../schedules/part'
import { zoneName } from '../util/day'
import { botIdOf, channelOf } from './inbound/session-to-fact'

export function registerScheduleCommand(ctx: Context) {
  ctx.command('kotodama.schedules', { authority: 3 }).action(async ({ session }) => {
    const bot = botIdOf(session)
    const key = channelOf(session)
    const profile = ctx.kotodama.owner(bot, key)
    if (!profile) return session.text('.unclaimed', [key])
    const runtime = await ctx.kotodama.runtime(profile, bot)
    const schedules = runtime.part(schedulesPart)
    if (!schedules) return session.text('.off', [profile.id])
    await schedules.start()
    const tasks = schedules.openOf(runtime.conversationKey(key)).map(t => schedules.view(t))
    if (!tasks.length) return session.text('.none')
    const lines = tasks.map(t => session.text(t.cron ? '.task-repeats' : '.task', [t.id, t.next, t.note, t.who.name, t.who.id, t.cron ?? '']))
    return [session.text('.title', [tasks.length, zoneName(runtime.view.timezone)]), ...lines].join('\n')
  })
}
