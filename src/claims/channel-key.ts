// Channel keys the mind sees and claims match (docs/decisions.md): private chats keep Koishi's
// 'private:<user>' id; other channels read 'group:<id>'. Claims and targets accept either form.

const GROUP = 'group:'
const PRIVATE = 'private:'
/** the one conversation of a cross-mode profile's runtime */
export const CROSS_CONVERSATION = 'cross'

/** The conversation a channel's messages belong to: the channel's own, or the one of cross mode. */
export function conversationKey(mode: 'channel' | 'cross' | undefined, channel: string): string {
  return mode === 'cross' ? CROSS_CONVERSATION : channel
}

/** A key of a private chat (a single chat with one person). */
export function isDirectKey(key: string): boolean {
  return key.startsWith(PRIVATE)
}

export function channelKey(rawChannelId: string, direct: boolean, userId?: string): string {
  // a direct chat is `private:<user>` whatever the platform calls it (the sandbox: `@alice`,
  // Discord: a DM channel id); sends go to the platform's own id, which the fact keeps
  if (direct && !isDirectKey(rawChannelId) && userId) return `${PRIVATE}${userId}`
  if (direct || isDirectKey(rawChannelId) || rawChannelId.startsWith(GROUP)) return rawChannelId
  return GROUP + rawChannelId
}

/** The id to hand back to the platform. */
export function rawChannel(key: string): string {
  return key.startsWith(GROUP) ? key.slice(GROUP.length) : key
}

/** Every spelling a claim pattern may use for this channel. */
export function channelForms(key: string): string[] {
  const raw = rawChannel(key)
  return raw === key ? [key] : [key, raw]
}

/** A target the model wrote, in the canonical form. */
export function normalizeTarget(channel: string): string {
  return isDirectKey(channel) || channel.startsWith(GROUP) ? channel : GROUP + channel
}
