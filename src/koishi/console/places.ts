// Which runtime a request of the console page is about: the running one, or one that is only in
// storage (its home or the history table), which the page reads without starting it.
import { Universal, type Context } from 'koishi'
import { claimsBot } from '../../claims/match'
import type { ProfileConfig } from '../../config/types'
import { conversationSummaries, runtimeSummary } from '../../console-data/summary'
import { storedConversations, storedRuntimeSummary } from '../../console-data/stored'
import type { ConversationSummary, RuntimeSummary } from '../../console-data/types'
import type { HistorySide } from '../../runtime/history-sides'
import type { Runtime } from '../../runtime/runtime'

export interface Place {
  profile: ProfileConfig
  bot: string
  /** the running runtime, if it runs */
  runtime?: Runtime
  /** where its histories are; undefined while its database is missing */
  side?: HistorySide
  home: string
}

export async function placeOf(ctx: Context, profile: string, bot: string): Promise<Place> {
  const runtime = (await ctx.kotodama.list()).find(r => r.profile.id === profile && r.bot === bot)
  if (runtime) return { profile: runtime.profile, bot, runtime, side: runtime.history(), home: runtime.home }
  const config = ctx.kotodama.profiles.find(p => p.id === profile)
  if (!config || !claimsBot(config.claims, bot)) throw new Error(`no profile ${profile} runs on ${bot}`)
  return { profile: config, bot, side: ctx.kotodama.storedHistory(config, bot), home: ctx.kotodama.homeOf(config, bot) }
}

const isOnline = (ctx: Context, bot: string) => ctx.bots[bot]?.status === Universal.Status.ONLINE

/** The running runtimes, then those that only have a home or stored histories. */
export async function runtimeList(ctx: Context): Promise<RuntimeSummary[]> {
  const running = await ctx.kotodama.list()
  const out = await Promise.all(running.map(r => runtimeSummary(r, isOnline(ctx, r.bot))))
  const stored = (await ctx.kotodama.stored()).filter(s => !running.some(r => r.profile.id === s.profile.id && r.bot === s.bot))
  out.push(...await Promise.all(stored.map(s => storedRuntimeSummary({ profile: s.profile.id, bot: s.bot, home: s.home, online: isOnline(ctx, s.bot), logger: ctx.logger('kotodama') }))))
  return out
}

/** Loaded conversations first (newest message first), then stored ones that are not loaded. */
export async function conversationList(place: Place): Promise<ConversationSummary[]> {
  const loaded = place.runtime ? await conversationSummaries(place.runtime) : []
  const stored = place.side ? await storedConversations(place.side, place.profile.mode, new Set(loaded.map(c => c.key))) : []
  return [...loaded, ...stored]
}
