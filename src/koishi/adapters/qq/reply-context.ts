// Which adapters need to know the message a send answers, and the context they take it in
// (SPEC §19). QQ's official API spends a send without it as a proactive message (a few a month,
// bot-docs #216) and cannot tell a single chat from a group: `@satorijs/adapter-qq` makes a
// passive reply (`msg_id`, an increasing `msg_seq` kept on the session) only from `options.session`.
import { LRUCache } from 'lru-cache'
import { Universal, type Bot, type Session } from 'koishi'
import { isDirectKey } from '../../../claims/channel-key'
import type { OutboundMessage } from '../../../runtime/types'

/** QQ's longest reply window (single chats: 60 minutes) */
const WINDOW_MS = 60 * 60 * 1000

export class ReplyContexts {
  /** one session per answered message, so the adapter's `msg_seq` counts up across sends */
  private sessions = new LRUCache<string, Session>({ max: 2000, ttl: WINDOW_MS })

  /** The options of `bot.sendMessage` for a message answering `replyTo`; the caller asks only where the platform needs them. */
  options(bot: Bot, m: OutboundMessage, rawId: string): { session: Session } | undefined {
    if (!m.replyTo) return undefined
    const key = `${bot.sid}\u0000${m.channel}\u0000${m.replyTo.id}`
    let session = this.sessions.get(key)
    if (!session) {
      const direct = isDirectKey(m.channel)
      session = bot.session({
        type: 'message', timestamp: m.replyTo.at,
        channel: { id: rawId, type: direct ? Universal.Channel.Type.DIRECT : Universal.Channel.Type.TEXT },
        ...(m.guildId ? { guild: { id: m.guildId } } : {}),
        // a single chat's id is its user's: the adapter uploads a C2C file to /v2/users/{session.userId}/files
        ...(direct ? { user: { id: rawId } } : {}),
        message: { id: m.replyTo.id },
      }) as Session
      // the adapter reads its own event fields off the session when the reply window has passed
      ;(session as any).qq ??= {}
      this.sessions.set(key, session)
    }
    return { session }
  }
}
