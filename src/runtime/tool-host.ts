// The runtime's side of the tool contract for one conversation.
import { isClaimed } from '../claims/match'
import { normalizeTarget } from '../claims/channel-key'
import type { ResolvedMedia, SendTarget, ToolHost } from '../tools/types'
import type { Conversation } from './conversation'
import type { Runtime } from './runtime'

export function createToolHost(runtime: Runtime, conv: Conversation): ToolHost {
  const profile = runtime.profile
  return {
    mode: profile.mode,
    bot: runtime.bot,
    typing: profile.typing,
    random: () => runtime.options.random(),
    now: () => Date.now(),
    ownTarget: () => profile.mode === 'channel' ? conv.lastTarget : undefined,
    resolveTarget(t): SendTarget | { error: string } {
      const bot = t.bot?.trim() || runtime.bot
      const channel = normalizeTarget(t.channel.trim())
      if (!/^[^:\s]+:.+$/.test(bot)) return { error: `bot "${bot}" is malformed; write platform:selfId` }
      if (!isClaimed(profile.claims, bot, channel)) return { error: `channel "${channel}" of bot ${bot} is outside this profile's claims` }
      return { bot, channel, ...runtime.guildOf(bot, channel) }
    },
    isOnline: bot => runtime.platform.isOnline(bot),
    async deliver(target, content) {
      const ids = await runtime.platform.send(target.bot, target.channel, content, target.guildId)
      runtime.rememberSent(ids)
      return ids
    },
    showTyping(target) {
      runtime.platform.typing?.(target.bot, target.channel).catch(() => {})
    },
    serialize: task => conv.sends.run(task),
    resolveMedia: (url, signal): Promise<ResolvedMedia> => runtime.resources.bytes(url, signal),
    sleep: (ms, signal) => new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms)
      signal?.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason) }, { once: true })
    }),
  }
}
