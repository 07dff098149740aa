// Turns that start without a message (SPEC §9, §15): an explicit wake-up, a part's request (an idle
// wake) and a pending wait restored at start. A channel-mode conversation woken so is aimed at its
// own channel first, so what the turn sends goes there.
import type { Logger } from '../util/logger'
import type { ChannelMemory } from './channel-memory'
import type { Conversation } from './conversation'
import { restoreWaits, type WaitIndex } from './durable-waits'
import type { LivePorts } from './live-facts'
import type { TurnRequest } from './turn-port'

/** What wake requests need of their runtime (a structural view, as pulled-facts.ts has). */
export interface WakeSide {
  readonly profile: { id: string; mode: string }
  readonly bot: string
  readonly logger: Logger
  readonly channels: ChannelMemory
  readonly waits: WaitIndex
  conversationKey(channel: string): string
}

export class WakeRequests {
  constructor(private side: WakeSide, private ports: Pick<LivePorts, 'using' | 'stopped'>) {}

  /** A turn of `channel`'s conversation, as a wake-up's, a wait's or a part's: the attention policies decide when. */
  request(channel: string, req: TurnRequest): Promise<void> {
    return this.ports.using(this.side.conversationKey(channel), conv => {
      this.aim(conv, channel)
      conv.request(req)
    })
  }

  /** Loads the conversations the waits index names: their waits re-arm without a message (SPEC §15). */
  restore(): Promise<void> {
    const { side, ports } = this
    return restoreWaits(side.waits, {
      who: `profile ${side.profile.id} on ${side.bot}`, logger: side.logger, stopped: () => ports.stopped(),
      owns: key => side.conversationKey(key) === key,
      load: key => ports.using(key, conv => this.aim(conv, key)),
    })
  }

  private aim(conv: Conversation, channel: string): void {
    const { side } = this
    if (!conv.target && side.profile.mode === 'channel') conv.target = { bot: side.bot, channel, ...side.channels.placeOf(side.bot, channel) }
  }
}
