// The console page (SPEC §12): its entry, the listeners that read the runtimes' own records and
// their storage (authority 4, effective when an auth plugin is present), and pushes when a
// conversation or an MCP server changed.
import { CONSOLE_WAKE_REASON } from '../../console-data/wake-reason'
import type { Context } from 'koishi'
import type {} from '@koishijs/plugin-console'
import type { ConversationSummary, McpSummary, RuntimeSummary, Transcript } from '../../console-data/types'
import { conversationTranscript } from '../../console-data/summary'
import { storedTranscript } from '../../console-data/stored'
import type { PriceOf } from '../../usage/cost'
import { registerEntry } from './entry'
import { schemeOf } from '../../resources/file-url'
import { conversationList, mediaOf, placeOf, runtimeList, type Place } from './places'
import { registerStickers } from './stickers'
import { registerAudio } from './audio'
import { registerPeople } from './people'
import { registerTrash } from './trash'
import { registerBudgets } from './budgets'
import { registerSchedules } from './schedules'
import { registerSkills } from './skills'
import { registerUpkeep } from './upkeep'

declare module '@koishijs/console' {
  interface Events {
    'kotodama/runtimes'(): Promise<RuntimeSummary[]>
    'kotodama/conversations'(profile: string, bot: string): Promise<ConversationSummary[]>
    'kotodama/transcript'(profile: string, bot: string, key: string): Promise<Transcript | null>
    'kotodama/reset'(profile: string, bot: string, key: string): Promise<boolean>
    'kotodama/wake'(profile: string, bot: string, key: string): Promise<void>
    'kotodama/image'(profile: string, bot: string, url: string): Promise<string | null>
    'kotodama/mcp'(): Promise<McpSummary[]>
  }
}

/** Koishi's admin level; console listeners check it when an auth plugin is loaded. */
const AUTHORITY = 4
/** Thumbnails larger than this are not sent to the page. */
const MAX_IMAGE_BYTES = 8 * 1024 * 1024
/** The page is told about changes at most this often. */
const PUSH_MS = 100

export function registerConsole(ctx: Context) {
  registerEntry(ctx)
  registerStickers(ctx)
  registerAudio(ctx)
  registerPeople(ctx)
  registerTrash(ctx)
  registerBudgets(ctx)
  registerSchedules(ctx)
  registerSkills(ctx)
  registerUpkeep(ctx)
  const options = { authority: AUTHORITY }
  const place = (profile: string, bot: string) => placeOf(ctx, profile, bot)
  const side = (p: Place) => {
    if (!p.side) throw new Error(`the histories of ${p.profile.id} on ${p.bot} are in the database, and Koishi has no database service`)
    return p.side
  }
  // the running runtime's prices; a runtime that is not running has those of the config
  const prices = (p: Place): PriceOf => p.runtime?.usage.priceOf ?? (id => ctx.kotodama.config.models?.find(m => m?.id === id)?.price)

  ctx.console.addListener('kotodama/runtimes', () => runtimeList(ctx), options)

  ctx.console.addListener('kotodama/conversations', async (profile, bot) => conversationList(await place(profile, bot)), options)

  // a loaded conversation from memory; any other from storage, read-only (nothing is loaded)
  ctx.console.addListener('kotodama/transcript', async (profile, bot, key) => {
    const p = await place(profile, bot)
    const loaded = p.runtime && await conversationTranscript(p.runtime, key)
    return loaded ?? await storedTranscript(side(p), key, prices(p)) ?? null
  }, options)

  ctx.console.addListener('kotodama/reset', async (profile, bot, key) => {
    const p = await place(profile, bot)
    if (p.runtime) return !!await p.runtime.reset(key)
    // the runtime's own reset, starting it; a bot that is gone cannot start one (its runtime
    // would stop at once), and no message can arrive for it: its stored history is set aside as
    // a reset does
    if (ctx.bots[bot]) return !!await (await ctx.kotodama.runtime(p.profile, bot)).reset(key)
    const store = side(p).open(key)
    try {
      return !!await store.reset()
    } finally {
      await store.flushed()
    }
  }, options)

  ctx.console.addListener('kotodama/wake', async (profile, bot, key) => {
    const p = await place(profile, bot)
    if (p.runtime) return p.runtime.wake(key, CONSOLE_WAKE_REASON)
    if (!ctx.bots[bot]) throw new Error(`bot ${bot} is not connected`)
    // the service's normal path starts the runtime; the cross conversation has no channel to name
    if (p.profile.mode === 'cross') return (await ctx.kotodama.runtime(p.profile, bot)).wake(key, CONSOLE_WAKE_REASON)
    await ctx.kotodama.wake({ profile, bot, channel: key, reason: CONSOLE_WAKE_REASON })
  }, options)

  // Images of facts and tool results, from the runtime's own assets and artifacts (its home's, when it is not running).
  ctx.console.addListener('kotodama/image', async (profile, bot, url) => {
    if (schemeOf(url) !== 'asset' && schemeOf(url) !== 'artifact') return null
    const media = await mediaOf(await place(profile, bot), url)
    if (!media || !media.mediaType.startsWith('image/') || media.data.length > MAX_IMAGE_BYTES) return null
    return `data:${media.mediaType};base64,${media.data.toString('base64')}`
  }, options)

  ctx.console.addListener('kotodama/mcp', async () => ctx.kotodama.mcpStatus(), options)

  // Changes are collected and pushed together; the page fetches what it shows again.
  let changed: { profile: string; bot: string; key?: string }[] = []
  const push = ctx.throttle(() => {
    const body = changed
    changed = []
    if (body.length) void ctx.console.broadcast('kotodama/changed', body, options)
  }, PUSH_MS)
  const unwatch = ctx.kotodama.watch((runtime, key) => {
    if (!changed.some(c => c.profile === runtime.profile.id && c.bot === runtime.bot && c.key === key)) {
      changed.push({ profile: runtime.profile.id, bot: runtime.bot, ...(key !== undefined ? { key } : {}) })
    }
    push()
  })
  // an MCP server changed state or tools: the page asks `kotodama/mcp` again
  const pushMcp = ctx.throttle(() => void ctx.console.broadcast('kotodama/mcp-changed', {}, options), PUSH_MS)
  const unwatchMcp = ctx.kotodama.mcp.watch(() => pushMcp())
  ctx.on('dispose', () => {
    unwatch()
    unwatchMcp()
    push.dispose()
    pushMcp.dispose()
  })
}
