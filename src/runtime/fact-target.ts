// Where a fact came from, as a send would address it.
import type { Fact } from '../history/entries'
import type { SendTarget } from '../tools/types'

export function targetOf(f: Fact): SendTarget {
  return { bot: f.bot, channel: f.channel, ...(f.guildId ? { guildId: f.guildId } : {}), ...(f.rawChannel ? { rawChannel: f.rawChannel } : {}) }
}
