// The console page (SPEC §12): its entry, the listeners that read the runtimes' own records
// (authority 4, effective when an auth plugin is present), and a push when a conversation changes.
import { Universal, type Context } from 'koishi'
import type {} from '@koishijs/plugin-console'
import type { ConversationSummary, RuntimeSummary, Transcript } from '../../console-data/types'
import { conversationSummaries, conversationTranscript, runtimeSummary } from '../../console-data/summary'
import type { Runtime } from '../../runtime/runtime'
import { registerEntry } from './entry'

declare module '@koishijs/console' {
  interface Events {
    'kotodama/runtimes'(): Promise<RuntimeSummary[]>
    'kotodama/conversations'(profile: string, bot: string): Promise<ConversationSummary[]>
    'kotodama/transcript'(profile: string, bot: string, key: string): Promise<Transcript | null>
    'kotodama/reset'(profile: string, bot: string, key: string): Promise<boolean>
    'kotodama/wake'(profile: string, bot: string, key: string): Promise<void>
    'kotodama/image'(profile: string, bot: string, url: string): Promise<string | null>
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
  const options = { authority: AUTHORITY }

  async function find(profile: string, bot: string): Promise<Runtime> {
    const runtime = (await ctx.kotodama.list()).find(r => r.profile.id === profile && r.bot === bot)
    if (!runtime) throw new Error(`profile ${profile} is not running on ${bot}`)
    return runtime
  }

  ctx.console.addListener('kotodama/runtimes', async () => {
    const runtimes = await ctx.kotodama.list()
    return Promise.all(runtimes.map(r => runtimeSummary(r, ctx.bots[r.bot]?.status === Universal.Status.ONLINE)))
  }, options)

  ctx.console.addListener('kotodama/conversations', async (profile, bot) => conversationSummaries(await find(profile, bot)), options)

  ctx.console.addListener('kotodama/transcript', async (profile, bot, key) => await conversationTranscript(await find(profile, bot), key) ?? null, options)

  ctx.console.addListener('kotodama/reset', async (profile, bot, key) => {
    const runtime = await find(profile, bot)
    return !!await runtime.reset(key)
  }, options)

  ctx.console.addListener('kotodama/wake', async (profile, bot, key) => {
    const runtime = await find(profile, bot)
    await runtime.wake(key, 'the owner, from the console')
  }, options)

  // Images of facts and tool results, from the runtime's own assets and artifacts.
  ctx.console.addListener('kotodama/image', async (profile, bot, url) => {
    if (!/^(asset|artifact):\/\//.test(url)) return null
    const media = await (await find(profile, bot)).resources.bytes(url).catch((): undefined => undefined)
    if (!media || !media.mediaType.startsWith('image/') || media.data.length > MAX_IMAGE_BYTES) return null
    return `data:${media.mediaType};base64,${media.data.toString('base64')}`
  }, options)

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
  ctx.on('dispose', () => {
    unwatch()
    push.dispose()
  })
}
