// What one history pull asks for and where it stops (SPEC §19), whatever the adapter: messages
// are offered newest first, and the window keeps those said since the conversation's newest stored
// one, at most `max`, none older than `notBefore`, none of the bot's own, none from the live
// message waiting behind the pull onwards (it arrives live, and what follows it does too).
import type h from '@satorijs/element'

/** A message read from a platform's history, before it is rendered. */
export interface FetchedMessage {
  id: string
  /** the platform's time, ms */
  at: number
  user: { id: string; name: string; isBot?: boolean }
  elements: h[]
  /** the message it quotes (its leading reply) */
  quote?: { id: string }
}

/** A message as a pull refers to it: its platform id and time (ms). */
export interface MessageMark {
  id: string
  at: number
}

export interface PullRequest {
  /** the conversation key of the channel (`group:<id>`, `private:<user>`) */
  channel: string
  /** the platform's own id of the channel (the group's number, `private:<user>`, a DM channel) */
  channelId: string
  direct: boolean
  /** the newest message the conversation holds of the channel: the pull stops there */
  since?: MessageMark
  /** the live message waiting behind the pull (the first since downtime) */
  before?: MessageMark
  max: number
  /** ms; nothing older is pulled */
  notBefore: number
  /** true once the pull's time is up: a source makes no further call */
  expired(): boolean
}

/** What a source read: the messages, oldest first; what went wrong, in words for the log; its platform calls. */
export interface Fetched {
  messages: FetchedMessage[]
  problems: string[]
  calls: number
}

export type Offer = 'kept' | 'skipped' | 'seen' | 'stop'

export class PullWindow {
  /** newest first */
  private kept: FetchedMessage[] = []
  private seen = new Set<string>()
  /** the live message was offered: what follows is older than it */
  private passedLive = false
  over = false

  constructor(private req: PullRequest, private selfId: string) {}

  /** One message, newer ones first. `seen`: offered before (pages overlap); `stop`: the pull is over. */
  offer(m: FetchedMessage): Offer {
    if (this.over) return 'stop'
    if (this.seen.has(m.id)) return 'seen'
    this.seen.add(m.id)
    const { since, before } = this.req
    if ((since && (m.id === since.id || m.at < since.at)) || m.at < this.req.notBefore) return this.stop()
    if (before && !this.passedLive) {
      if (m.id === before.id) {
        // platform times are whole seconds: those of its second offered before it are newer than the live one
        this.passedLive = true
        this.kept = this.kept.filter(k => k.at < before.at)
        this.over = this.kept.length >= this.req.max
        return 'skipped'
      }
      if (m.at > before.at) return 'skipped'
    }
    // the bot's own messages are in the history already, as the steps that sent them
    if (m.user.id === this.selfId) return 'skipped'
    this.kept.push(m)
    if (this.kept.length >= this.req.max) this.over = true
    return 'kept'
  }

  get count(): number {
    return this.kept.length
  }

  /** What the pull keeps, oldest first. */
  messages(): FetchedMessage[] {
    return [...this.kept].reverse()
  }

  private stop(): Offer {
    this.over = true
    return 'stop'
  }
}

/** Oldest first by time, a page's own order kept for equal times. */
export function byTime<T extends { at: number }>(items: T[]): T[] {
  return [...items].sort((a, b) => a.at - b.at)
}
