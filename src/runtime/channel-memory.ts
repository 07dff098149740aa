// What a runtime remembers of the channels it hears, across its conversations: where each channel
// is on the platform (guild, own id), the latest message people sent there (a reply's context),
// the names people write under (a poke names only an id), and the ids of its own sends (the wake engine must not take them for people's messages).
import { LRUCache } from 'lru-cache'
import type { Fact } from '../history/entries'
import type { InboundRef } from './types'
import { displayName } from '../util/transcript-text'

export interface ChannelPlace {
  guildId?: string
  rawChannel?: string
}

interface Heard {
  place: ChannelPlace
  latest: InboundRef
}

const CHANNELS = 5000
const SENT_IDS = 5000
const PEOPLE = 5000

export class ChannelMemory {
  private channels = new LRUCache<string, Heard>({ max: CHANNELS })
  /** its own sends: where and when (an unsend's window, SPEC §23), and whether it took one back */
  private sent = new LRUCache<string, { channel?: string; at?: number; unsent?: true }>({ max: SENT_IDS })
  /** the names people wrote under, for notices that carry only an id (a poke) */
  private people = new LRUCache<string, string>({ max: PEOPLE })

  /** A fact arrived: its channel's place and latest message. */
  heard(fact: Fact): void {
    const place: ChannelPlace = {
      ...(fact.guildId ? { guildId: fact.guildId } : {}),
      ...(fact.rawChannel ? { rawChannel: fact.rawChannel } : {}),
    }
    if (!fact.notice) this.channels.set(key(fact.bot, fact.channel), { place, latest: { id: fact.id, at: fact.at } })
    // kept by the name rule (SPEC §22): a notice writes it into its text
    if (fact.user.name !== fact.user.id) this.people.set(key(fact.bot, fact.user.id), displayName(fact.user.name, fact.user.id))
  }

  /** The name `user` last wrote under on `bot`, if this runtime heard them. */
  nameOf(bot: string, user: string): string | undefined {
    return this.people.get(key(bot, user))
  }

  /** Whether someone wrote in `channel` of `bot` while this runtime ran (a private target needs it, SPEC §22). */
  heardIn(bot: string, channel: string): boolean {
    return this.channels.has(key(bot, channel))
  }

  placeOf(bot: string, channel: string): ChannelPlace {
    return this.channels.get(key(bot, channel))?.place ?? {}
  }

  latest(bot: string, channel: string): InboundRef | undefined {
    return this.channels.get(key(bot, channel))?.latest
  }

  rememberSent(ids: readonly string[] | undefined, where: { channel?: string; at?: number } = {}): void {
    for (const id of ids ?? []) this.sent.set(id, where)
  }

  /** When the bot sent `id` in `channel` (ms), while this runtime remembers it. */
  sentAt(id: string, channel: string): number | undefined {
    const s = this.sent.get(id)
    return s?.channel === channel ? s.at : undefined
  }

  /** `id` of `channel` was taken back (an `unsent` entry of the history, SPEC §23) */
  markUnsent(id: string, channel: string): void {
    const s = this.sent.get(id)
    if (s?.channel === channel) s.unsent = true
  }

  unsentIn(id: string, channel: string): boolean {
    const s = this.sent.get(id)
    return s?.channel === channel && !!s.unsent
  }

  sentByBot(id: string): boolean {
    return this.sent.has(id)
  }
}

const key = (bot: string, channel: string) => `${bot}\u0000${channel}`
