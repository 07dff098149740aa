// A bot's id is Koishi's `platform:selfId` (its sid); a runtime is one per (profile, bot). The one
// place that splits and joins them.

/** the platform of 'platform:selfId' (the whole id when it has no ':') */
export function platformOf(bot: string): string {
  const i = bot.indexOf(':')
  return i < 0 ? bot : bot.slice(0, i)
}

/** the selfId of 'platform:selfId' (the whole id when it has no ':') */
export function selfIdOf(bot: string): string {
  return bot.slice(bot.indexOf(':') + 1)
}

/** 'platform:selfId' */
export function botId(platform: string, selfId: string): string {
  return `${platform}:${selfId}`
}

/** The key of the runtime of (profile, bot) in maps of runtimes. */
export function runtimeKey(profileId: string, bot: string): string {
  return `${profileId}\u0000${bot}`
}
