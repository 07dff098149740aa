// The schedule tool (SPEC §25): add a task to this conversation, list its tasks, cancel one. Who
// asked is the newest author of the facts that woke the turn, never an argument (SPEC §22); a turn
// no person woke adds none. A task is cancelled by whoever asked for it, or by the bot owner's people.
import { z } from 'zod'
import type { Tool, TurnState } from '../contract/tool'
import { allowed, notAllowed, type NotAllowed } from '../trust/permission'
import DESCRIPTION from './schedule.txt'
import type { ScheduleError } from './new-task'
import type { Schedules, TaskView } from './schedules'
import { NOTE_CHARS, type Task } from './task'

const inputSchema = z.object({
  // lean: a long at, cron or id fails as InvalidTime or NotFound; the note's bound is the schema's
  at: z.string().optional(),
  cron: z.string().optional(),
  note: z.string().max(NOTE_CHARS).optional(),
  list: z.boolean().optional(),
  cancel: z.string().optional(),
}).superRefine((v, ctx) => {
  const asked = [v.at !== undefined, v.cron !== undefined, !!v.list, v.cancel !== undefined].filter(Boolean).length
  if (asked !== 1) ctx.addIssue({ code: 'custom', message: 'give exactly one of at, cron, list or cancel' })
  else if ((v.at !== undefined || v.cron !== undefined) && !v.note) ctx.addIssue({ code: 'custom', path: ['note'], message: 'a task needs its note' })
})

type Input = z.infer<typeof inputSchema>

export type ScheduleResult =
  | { ok: true; id: string; next: string }
  | { ok: true; tasks: TaskView[] }
  | { ok: true; cancelled: string }
  | { ok: false; error: ScheduleError | { name: 'NoChat'; message: string } }
  | NotAllowed

const NO_ASKER: NotAllowed = {
  ok: false, error: { name: 'NotAllowed', message: 'a task is asked for by a person, and no person\'s message woke this turn; nothing was scheduled' },
}

const failed = (error: ScheduleError | { name: 'NoChat'; message: string }) => ({ ok: false as const, error })

export function scheduleTool(schedules: Schedules): Tool<Input, ScheduleResult> {
  return {
    description: DESCRIPTION.trim(),
    inputSchema,
    program: { output: '{ ok: boolean, id?: string, next?: string, tasks?: object[], cancelled?: string, error?: { name: string, message: string } }' },
    execute: async (input, ctx) => {
      const { turn } = ctx
      const conversation = turn.conversation ?? ''
      if (input.list) return { ok: true, tasks: schedules.openOf(conversation).map(t => schedules.view(t)) }
      if (input.cancel !== undefined) return cancel(schedules, turn, conversation, input.cancel.replace(/^#/, ''))
      const who = turn.authors?.find(a => !a.bot)
      if (!who) return NO_ASKER
      const channel = turn.chat?.channel
      if (!channel) return failed({ name: 'NoChat', message: 'this turn was woken in several chats; a task belongs to one: ask again in that chat' })
      const added = await schedules.add({
        conversation, channel, note: input.note!, who: { platform: who.platform, id: who.id, ...who.name ? { name: who.name } : {} },
        ...input.at !== undefined ? { at: input.at } : { cron: input.cron! },
      })
      return 'id' in added ? { ok: true, ...added } : failed(added)
    },
  }
}

async function cancel(schedules: Schedules, turn: TurnState, conversation: string, id: string): Promise<ScheduleResult> {
  const task = schedules.get(id)
  // another chat's task is not there (SPEC §22)
  if (!task || task.conversation !== conversation) return failed({ name: 'NotFound', message: `no open task #${id} in this chat` })
  if (!asker(turn, task) && !await allowed(turn, 'owner')) return notAllowed('owner', 'cancelling a task someone else asked for')
  const done = await schedules.cancel(id)
  return 'ok' in done ? { ok: true, cancelled: id } : failed(done)
}

/** Whether every author of the turn's waking facts is the one who asked for `task`. */
function asker(turn: TurnState, task: Task): boolean {
  const authors = turn.authors ?? []
  return authors.length > 0 && authors.every(a => a.platform === task.who.platform && a.id === task.who.id)
}
