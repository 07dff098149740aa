// Which profile owns a channel (SPEC §1): the first, in list order, whose claims match. A channel
// claimed by several is logged once. An explicit wake-up goes to the profile it names, or the owner.
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

  /** The profile an explicit wake-up goes to (SPEC §9): the one named, else the channel's owner; it must claim the channel. */
  wakeProfile(bot: string, channel: string, name?: string): ProfileConfig {
    const profile = name ? this.profiles().find(p => p.id === name) : this.owner(bot, channel)
    if (!profile) throw new Error(name ? `profile "${name}" is not running` : `no profile claims channel ${channel} of bot ${bot}`)
    if (!isClaimed(profile.claims, bot, channel)) throw new Error(`profile "${profile.id}" does not claim channel ${channel} of bot ${bot}`)
    return profile
  }
}
