// Which profile owns a channel (SPEC §1): the first, in list order, whose claims match. A channel
// claimed by several is logged once.
import { isClaimed } from '../claims/match'
import type { ProfileConfig } from '../config/types'
import type { Logger } from '../util/logger'

/** An explicit wake-up of a channel (ctx.kotodama.wake, SPEC §9); without a profile, the channel's owner. */
export interface WakeOptions {
  profile?: string
  bot: string
  channel: string
  reason: string
}

export class Routing {
  private warned = new Set<string>()

  constructor(private profiles: () => ProfileConfig[], private log: Logger) {}

  owner(bot: string, channel: string): ProfileConfig | undefined {
    const claiming = this.profiles().filter(p => isClaimed(p.claims, bot, channel))
    if (claiming.length > 1) {
      const key = `${bot}\u0000${channel}`
      if (!this.warned.has(key)) {
        this.warned.add(key)
        this.log.warn('channel %s of bot %s is claimed by profiles %s; "%s" owns it', channel, bot, claiming.map(p => `"${p.id}"`).join(', '), claiming[0].id)
      }
    }
    return claiming[0]
  }
}
