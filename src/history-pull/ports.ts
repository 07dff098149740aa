// What the history pull (SPEC §19) needs of the rest: a platform that can read a conversation's
// recent messages (HistorySource, implemented at the edge per adapter) and a narrow view of a
// runtime (its conversations and their last activity, where a pull starts, storing pulled facts).
import type { ProfileConfig } from '../config/types'
import type { Fact } from '../history/entries'
import type { Fetched, PullRequest } from './window'

/** Reads one channel's recent messages from a bot's platform, newest kept within `req`. */
export type HistorySource = (req: PullRequest) => Promise<Fetched>

/** Where a pull of one channel starts: the newest fact its conversation holds of it. */
export interface PullPoint {
  channel: string
  last?: Fact
}

/** The stored side of a runtime, as the pull uses it (runtime/pulled-facts.ts). */
export interface PulledStore {
  /** keys of the stored conversations; with `activeSince` (ms), only those active since then */
  conversations(activeSince?: number): Promise<string[]>
  /** the channels a conversation holds facts of, each with its newest fact */
  points(key: string): Promise<PullPoint[]>
  /** the newest fact of `channel` its conversation holds */
  last(channel: string): Promise<Fact | undefined>
  /** stores pulled facts without waking; how many were new, false when the runtime stopped */
  store(facts: Fact[]): Promise<number | false>
}

/** The runtime of (profile, bot) as the pull sees it. */
export interface PullingRuntime {
  readonly bot: string
  readonly profile: ProfileConfig
  readonly options: { readonly clock: { now(): number } }
  readonly pulled: PulledStore
}

/** Where a channel is, as its facts say it (or the live message that starts a pull). */
export interface ChannelPlace {
  channel: string
  /** the platform's own id of the channel */
  channelId: string
  direct: boolean
  guildId?: string
  channelName?: string
}

/** The first live message of a channel since the epoch began: its place, platform id and time (ms). */
export interface LiveArrival extends ChannelPlace {
  id: string
  at: number
}
