// kotodama.upkeep and kotodama.upkeep.review (SPEC §26, authority 4): run upkeep now for the runtime
// of this chat's profile (or a profile named, on this bot) and answer when it ends with what it did;
// decide one proposal by its id. Both start the runtime as kotodama.schedules does: the book and
// memory's writer live in the running upkeep part.
import type { Context, Session } from 'koishi'
import { claimsBot } from '../claims/match'
import type { ProfileConfig } from '../config/types'
import { upkeepPart } from '../upkeep/part'
import type { RunReport } from '../upkeep/run-report'
import type { Decision, Upkeep } from '../upkeep/upkeep'
import { botIdOf, channelOf } from './inbound/session-to-fact'

/** pending ids named in the answer; past it, "…" */
const NAMED_PENDING = 10

type Found = { upkeep: Upkeep } | { answer: string }

export function registerUpkeepCommands(ctx: Context) {
  /** the profile named on this bot, else the one that owns this chat; its running upkeep, or the line that says why not */
  async function upkeepFor(session: Session, name: string | undefined): Promise<Found> {
    const bot = botIdOf(session)
    const profile: ProfileConfig | undefined = name ? ctx.kotodama.profiles.find(p => p.id === name) : ctx.kotodama.owner(bot, channelOf(session))
    const ids = ctx.kotodama.profiles.map(p => p.id).join(', ') || '-'
    if (!profile && name) return { answer: session.text('commands.kotodama.messages.no-profile', [name, ids]) }
    if (!profile) return { answer: session.text('commands.kotodama.upkeep.messages.unclaimed', [channelOf(session)]) }
    if (!claimsBot(profile.claims, bot)) return { answer: session.text('commands.kotodama.upkeep.messages.not-here', [profile.id, bot]) }
    const part = (await ctx.kotodama.runtime(profile, bot)).part(upkeepPart)
    if (!part) return { answer: session.text('commands.kotodama.upkeep.messages.off', [profile.id]) }
    return { upkeep: part.upkeep }
  }

  ctx.command('kotodama.upkeep [profile:string]', { authority: 4 }).action(async ({ session }, name) => {
    const found = await upkeepFor(session, name)
    if ('answer' in found) return found.answer
    const report = await found.upkeep.run('command')
    return reportLines(session, report, found.upkeep).join('\n')
  })

  ctx.command('kotodama.upkeep.review <decision:string> <id:string>', { authority: 4 })
    .option('profile', '-p <id:string>')
    .action(async ({ session, options }, decision, id) => {
      if ((decision !== 'accept' && decision !== 'reject') || !id) return session.text('.usage')
      const found = await upkeepFor(session, options.profile)
      if ('answer' in found) return found.answer
      const done = await found.upkeep.decide(id, decision as Decision, `command:${session.platform}:${session.userId}`)
      if ('error' in done) return session.text(`.${done.error.name}`, [id, done.error.message, found.upkeep.book.get(id)?.state ?? ''])
      const p = done.proposal
      return session.text(`.${p.state}`, [p.id, p.url, p.error?.code ?? '', p.error?.message ?? ''])
    })
}

/** What a run did, in the words of kotodama.upkeep's answer. */
function reportLines(session: Session, r: RunReport, upkeep: Upkeep): string[] {
  const t = (key: string, args: unknown[] = []) => session.text(`commands.kotodama.upkeep.messages.${key}`, args)
  const lines = [r.conversations
    ? t('done', [r.conversations, r.messages, r.requests, r.promptTokens, r.proposed, r.applied])
    : t('nothing-new')]
  if (r.stopped) lines.push(t(`stopped-${r.stopped}`, [r.why ?? '']))
  if (r.skipped) lines.push(t('skipped', [r.skipped]))
  const pending = upkeep.proposals().filter(p => p.state === 'pending').map(p => p.id)
  if (pending.length) {
    const named = pending.slice(0, NAMED_PENDING).join(', ') + (pending.length > NAMED_PENDING ? ', …' : '')
    lines.push(t('pending', [pending.length, named, pending[0]]))
  }
  return lines
}
