// What a runtime remembers of the channels it hears, across its conversations: where each channel
// is on the platform (guild, own id), the latest message people sent there (a reply's context),
// and the ids of its own sends (the wake engine must not take them for people's messages).
import { LRUCache } from 'lru-cache'
import type { Fact } from '../history/entries'
import type { InboundRef } from './types'

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

export class ChannelMemory {
  private channels = new LRUCache<string, Heard>({ max: CHANNELS })
  private sent = new LRUCache<string, true>({ max: SENT_IDS })

  /** A fact arrived: its channel's place and latest message. */
  heard(fact: Fact): void {
    const place: ChannelPlace = {
      ...(fact.guildId ? { guildId: fact.guildId } : {}),
      ...(fact.rawChannel ? { rawChannel: fact.rawChannel } : {}),
    }
    this.channels.set(key(fact.bot, fact.channel), { place, latest: { id: fact.id, at: fact.at } })
  }

  placeOf(bot: string, channel: string): ChannelPlace {
    return this.channels.get(key(bot, channel))?.place ?? {}
  }

  latest(bot: string, channel: string): InboundRef | undefined {
    return this.channels.get(key(bot, channel))?.latest
  }

  rememberSent(ids: readonly string[] | undefined): void {
    for (const id of ids ?? []) this.sent.set(id, true)
  }

  sentByBot(id: string): boolean {
    return this.sent.has(id)
  }
}

const key = (bot: string, channel: string) => `${bot}\u0000${channel}`
