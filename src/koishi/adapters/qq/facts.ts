// What QQ's official API allows the bot (docs/platforms.md).
import type { PlatformFacts } from '../platform-facts'

/** Why a pull finds nothing: the API keeps no message history a bot may read. */
export const QQ_NO_HISTORY = 'QQ official API: no history'

export const QQ_FACTS: PlatformFacts = {
  label: "QQ's official API",
  has: {
    history: QQ_NO_HISTORY, stickerMark: 'QQ official API: no sticker mark', voice: true,
    poke: 'QQ official API: no pokes', muteNotices: 'QQ official API: no ban notices', faces: 'QQ official API: faces are sent as text',
    passiveReplies: true, proactive: 'QQ official API: a few a month per group or user (none since April 2025)',
    // @satorijs/adapter-qq: createReaction only on guild channels (QQGuildBot), deleteMessage on both
    react: 'QQ official API: no reactions in groups', pokeOut: 'QQ official API: no pokes', unsend: true,
  },
  unsendWindowMs: 120_000,
  // @satorijs/adapter-qq uploads audio as is only when it starts with #!SILK; else it needs a silk or ffmpeg service
  voiceAs: 'silk',
}
