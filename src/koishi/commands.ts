// Admin commands (SPEC §9): kotodama.status (usage and cost per model, §11, §16) and
// kotodama.reset and kotodama.pause (SPEC §19), authority 3; kotodama.migrate (issue 15, docs/storage.md), authority 4: it stops
// a runtime and moves all its histories. Without a database only `trust.owners` run them (command-owners.ts, SPEC §22);
// kotodama.reset names another conversation only for an owner.
import type { Context } from 'koishi'
import { normalizeTarget } from '../claims/channel-key'
import { botIdOf, channelOf } from './inbound/session-to-fact'
import { MigrationError } from '../history/migrate'
import { cachedShare, formatCost, formatShare } from '../usage/cost'
import type { UsageCounts } from '../usage/book'
import { MigrateRefused } from './service'
import { formatTime } from '../history/render-facts'
import { capabilitiesOf, type Capability } from './presence/capabilities'
import { guardCommands, isOwner } from './command-owners'
import { memoryPart } from '../memory/part'
import { presencePart } from '../presence/part'
import { budgetLines } from './budget-status'
import { registerScheduleCommand } from './schedule-command'
import { registerUpkeepCommands } from './upkeep-command'
import { upkeepStatus } from './upkeep-status'

/** the longest pause: QQ's longest ban, 30 days */
const MAX_PAUSE_MINUTES = 30 * 24 * 60

export function registerCommands(ctx: Context) {
  guardCommands(ctx)
  ctx.command('kotodama', { authority: 3 })

  // owners read times in the zone the mind reads them (budgets.timezone)
  const timeOf = (ms: number) => formatTime(ms, ctx.kotodama.checked.budgets.timezone)

  ctx.command('kotodama.status', { authority: 3 }).action(async ({ session }) => {
    const runtimes = await ctx.kotodama.list()
    const servers = ctx.kotodama.mcpStatus()
    // the budgets are the plugin's: shown with no runtime running too, when one is set or anything was spent today
    const report = await ctx.kotodama.budgetReport()
    const budgets = runtimes.length > 0 || report.lines.some(l => l.limit > 0 || l.spent > 0)
    if (!runtimes.length && !servers.length && !budgets) return session.text('.none')
    const lines: string[] = runtimes.length ? [] : [session.text('.none')]
    for (const r of runtimes) {
      const convs = await r.status()
      lines.push(session.text('.runtime', [r.profile.id, r.bot, convs.length]))
      const caps = capabilitiesOf(r.bot, r.profile)
      const feature = (f: Capability) => session.text(f.on ? '.feature-on' : '.feature-off', [session.text(`.feature.${f.name}`), f.why ?? ''])
      lines.push(session.text('.platform', [caps.label, caps.features.map(feature).join(', ')]))
      const memory = r.part(memoryPart)?.memory
      const stats = await memory?.stats().catch((): undefined => undefined)
      // "1 file", "2 files": its own text where a language tells them apart
      const text = stats?.files === 1 ? '.memory-one' : '.memory'
      if (memory && stats) lines.push(session.text(text, [stats.files, stats.bytes, memory.config.maxFiles, memory.config.maxTotalBytes]))
      lines.push(...upkeepStatus(session, r, timeOf))
      for (const c of convs) {
        const wait = (c.wait ? session.text('.wait', [c.wait.seconds ?? '-', c.wait.messages ?? '-', c.wait.factsSeen]) : '')
          + (c.muted ? session.text(`.muted-${c.muted.by}`, [timeOf(c.muted.until)]) : '')
          + (c.idle ? 'at' in c.idle ? session.text('.idle-at', [timeOf(c.idle.at)]) : session.text('.idle-none', [c.idle.none]) : '')
        lines.push(session.text('.conversation', [c.key, c.entries, c.busy ? session.text('.busy') : session.text('.idle'), wait]))
      }
      for (const u of r.usage.snapshot()) {
        // the cost only where the model has a price: unknown is not free (SPEC §16)
        const counts = (c: UsageCounts) =>
          session.text('.usage-counts', [c.requests, c.promptTokens, formatShare(cachedShare(c)), c.completionTokens, c.errors])
          + (c.cacheWriteTokens ? session.text('.usage-cache-writes', [c.cacheWriteTokens]) : '')
          + (c.images ? session.text('.usage-images', [c.images]) : '')
          + (c.cost !== undefined ? session.text('.usage-cost', [formatCost(c.cost)]) : '')
        lines.push(session.text('.usage', [u.model]), session.text('.usage-total', [counts(u.total)]), session.text('.usage-today', [counts(u.today)]))
      }
    }
    if (budgets) lines.push(...budgetLines(session, report))
    for (const s of servers) {
      const state = s.state === 'retrying'
        ? session.text('.mcp-retrying', [Math.ceil((s.retryInMs ?? 0) / 1000), s.error ?? ''])
        : session.text(`.mcp-${s.state}`)
      lines.push(session.text('.mcp', [s.id, state, s.tools]))
    }
    return lines.join('\n')
  })

  ctx.command('kotodama.reset [channel:string]', { authority: 3 })
    .option('profile', '-p <id:string>')
    .option('bot', '-b <bot:string>')
    .action(async ({ session, options }, channel) => {
      const bot = options.bot ?? botIdOf(session)
      const key = channel ? normalizeTarget(channel) : channelOf(session)
      const profile = options.profile ? ctx.kotodama.profiles.find(p => p.id === options.profile) : ctx.kotodama.owner(bot, key)
      // SPEC §22: the conversation where it is written; another one only when an owner names it
      const here = bot === botIdOf(session) && key === channelOf(session) && (!options.profile || profile === ctx.kotodama.owner(bot, key))
      if (!here && !isOwner(ctx, session)) return session.text('.owner-names', [channelOf(session)])
      if (!profile && options.profile) return session.text('commands.kotodama.messages.no-profile', [options.profile, profileIds(ctx)])
      if (!profile) return session.text('.unclaimed', [key])
      const runtime = await ctx.kotodama.runtime(profile, bot)
      const aside = await runtime.reset(key)
      return session.text(aside ? '.done' : '.empty', [runtime.conversationKey(key), profile.id])
    })

  // SPEC §19: the owner mutes the mind where the command is written; 0 ends the pause
  ctx.command('kotodama.pause [minutes:number]', { authority: 3 }).action(async ({ session }, minutes = 60) => {
    if (!Number.isFinite(minutes) || minutes < 0 || minutes > MAX_PAUSE_MINUTES) return session.text('.usage', [MAX_PAUSE_MINUTES])
    const bot = botIdOf(session)
    const key = channelOf(session)
    const profile = ctx.kotodama.owner(bot, key)
    if (!profile) return session.text('.unclaimed', [key])
    const runtime = await ctx.kotodama.runtime(profile, bot)
    const now = ctx.kotodama.clock.now()
    const presence = runtime.part(presencePart)?.presence
    if (!presence) return session.text('.unclaimed', [key])
    // cross mode: the pause holds in every channel of the conversation
    const mute = await presence.mute(key, minutes ? now + minutes * 60_000 : 0, 'owner', now)
    if (!mute) return session.text('.resumed')
    const until = timeOf(mute.until)
    return session.text(mute.by === 'platform' ? '.banned' : '.paused', [until])
  })

  registerScheduleCommand(ctx)
  registerUpkeepCommands(ctx)

  ctx.command('kotodama.migrate <to:string>', { authority: 4 })
    .option('profile', '-p <id:string>')
    .option('bot', '-b <bot:string>')
    .action(async ({ session, options }, to) => {
      if (to !== 'files' && to !== 'database') return session.text('.usage')
      const bot = options.bot ?? botIdOf(session)
      const profile = options.profile ? ctx.kotodama.profiles.find(p => p.id === options.profile) : ctx.kotodama.owner(bot, channelOf(session))
      if (!profile && options.profile) return session.text('commands.kotodama.messages.no-profile', [options.profile, profileIds(ctx)])
      if (!profile) return session.text('.unclaimed')
      try {
        const r = await ctx.kotodama.migrate(profile, bot, to)
        const done = r.conversations
          ? session.text('.done', [r.conversations, r.entries, profile.id, bot, to])
          : session.text('.nothing', [profile.id, bot, to === 'database' ? 'files' : 'database'])
        return (ctx.kotodama.config.storage ?? 'files') === to ? done : `${done}\n${session.text('.config', [to])}`
      } catch (e) {
        if (e instanceof MigrateRefused) return session.text(`.${e.reason}`, [profile.id, bot])
        if (e instanceof MigrationError) return session.text('.failed', [e.message])
        throw e
      }
    })
}

/** The ids of the profiles that started, for a message naming an unknown one. */
function profileIds(ctx: Context): string {
  return ctx.kotodama.profiles.map(p => p.id).join(', ') || '-'
}
