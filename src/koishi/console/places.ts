// Which runtime a request of the console page is about: the running one, or one that is only in
// storage (its home or the history table), which the page reads without starting it.
import { Universal, type Context } from 'koishi'
import { claimsBot } from '../../claims/match'
import type { ProfileConfig } from '../../config/types'
import { conversationSummaries, runtimeSummary } from '../../console-data/summary'
import { storedConversations, storedRuntimeSummary } from '../../console-data/stored'
import type { CapabilityLine, ConversationSummary, RuntimeSummary } from '../../console-data/types'
import { homeMedia } from '../../console-data/home-media'
import type { MediaBytes } from '../../resources/types'
import { capabilitiesOf } from '../presence/capabilities'
import type { HistorySide } from '../../history/sides'
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
  // a profile that did not start keeps its stored conversations readable (issue 21)
  const failed = !config && bot ? ctx.kotodama.notStarted().find(n => n.profile.id === profile)?.profile : undefined
  if (failed) return { profile: failed, bot, side: ctx.kotodama.storedHistory(failed, bot), home: ctx.kotodama.homeOf(failed, bot) }
  if (!config || !claimsBot(config.claims, bot)) throw new Error(`no profile ${profile} runs on ${bot}`)
  return { profile: config, bot, side: ctx.kotodama.storedHistory(config, bot), home: ctx.kotodama.homeOf(config, bot) }
}

/** The bytes of an asset:// or artifact:// URL of the place: from the running runtime, else from its home; undefined when missing. */
export async function mediaOf(p: Place, url: string): Promise<MediaBytes | undefined> {
  return p.runtime ? p.runtime.resources.bytes(url).catch((): undefined => undefined) : homeMedia(p.home, url)
}

const isOnline = (ctx: Context, bot: string) => ctx.bots[bot]?.status === Universal.Status.ONLINE

/** The running runtimes, then those that only have a home or stored histories. */
export async function runtimeList(ctx: Context): Promise<RuntimeSummary[]> {
  const running = await ctx.kotodama.list()
  const summary = async (r: Runtime) => ({ ...await runtimeSummary(r, isOnline(ctx, r.bot)), capabilities: capabilityLine(r.bot, r.profile) })
  const out: RuntimeSummary[] = await Promise.all(running.map(summary))
  const stored = (await ctx.kotodama.stored()).filter(s => !running.some(r => r.profile.id === s.profile.id && r.bot === s.bot))
  const failed = new Map(ctx.kotodama.notStarted().map(n => [n.profile.id, n.problems]))
  out.push(...await Promise.all(stored.map(async s => {
    const online = isOnline(ctx, s.bot)
    const summary = await storedRuntimeSummary({ profile: s.profile.id, bot: s.bot, home: s.home, online, logger: ctx.kotodama.log,
      timezone: ctx.kotodama.checked.budgets.timezone })
    const problems = failed.get(s.profile.id)
    return problems ? { ...summary, notStarted: problems } : { ...summary, capabilities: capabilityLine(s.bot, s.profile) }
  })))
  // a profile that did not start and has nothing stored still says why
  for (const [profile, problems] of failed) {
    if (stored.some(s => s.profile.id === profile)) continue
    const nothing: Omit<RuntimeSummary, 'profile' | 'bot' | 'online' | 'running'> = {
      conversations: 0, tokensToday: 0, requestsToday: 0, errorsToday: 0, days: [], memory: [],
    }
    out.push({ profile, bot: '', online: false, running: false, ...nothing, notStarted: problems })
  }
  return out
}

function capabilityLine(bot: string, profile: ProfileConfig): CapabilityLine {
  const { label, features } = capabilitiesOf(bot, profile)
  return { label, features }
}

/** Loaded conversations first (newest message first), then stored ones that are not loaded. */
export async function conversationList(place: Place): Promise<ConversationSummary[]> {
  const loaded = place.runtime ? await conversationSummaries(place.runtime) : []
  const stored = place.side ? await storedConversations(place.side, place.profile.mode, new Set(loaded.map(c => c.key))) : []
  return [...loaded, ...stored]
}
