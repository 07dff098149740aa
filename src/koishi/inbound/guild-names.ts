// A group's name for the system prompt (SPEC §27 "Where it is"). OneBot's message events carry
// none, so it is asked of the platform (bot.getGuild) the first time a group writes, waiting a
// moment for it so that the first turn's prompt already names the group (a name learnt later would
// change the prompt once, SPEC §16), and asked again in the background after a while. A platform
// that refuses or does not answer leaves the group unnamed until then.
import { LRUCache } from 'lru-cache'
import { TIMED_OUT, within } from '../../util/within'

/** how long the first message of a group waits for its name */
export const FIRST_WAIT_MS = 1500
/** a name (or a refusal) is asked again after this long */
export const REASK_MS = 6 * 3600_000

interface Known {
  name?: string
  at: number
  asking?: Promise<void>
}

export interface GuildSource {
  getGuild?(guildId: string): Promise<{ name?: string } | undefined>
}

export class GuildNames {
  private known = new LRUCache<string, Known>({ max: 4096 })

  constructor(private now: () => number) {}

  /** The name of `guildId` of bot `bot` (its sid), asked of `source` when not known or old. */
  async of(bot: string, source: GuildSource, guildId: string): Promise<string | undefined> {
    const key = `${bot}\u0000${guildId}`
    let k = this.known.get(key)
    if (k && (k.asking || this.now() - k.at < REASK_MS)) return k.name
    const first = !k
    if (!k) this.known.set(key, k = { at: 0 })
    const entry = k
    entry.asking = ask(source, guildId).then(name => {
      entry.name = name ?? entry.name
      entry.at = this.now()
    }).finally(() => { entry.asking = undefined })
    if (first) await within(entry.asking, FIRST_WAIT_MS)
    return entry.name
  }
}

async function ask(source: GuildSource, guildId: string): Promise<string | undefined> {
  try {
    const got = await within(Promise.resolve(source.getGuild?.(guildId)), 10_000)
    if (got === TIMED_OUT) return undefined
    return typeof got?.name === 'string' && got.name.trim() ? got.name : undefined
  } catch {
    return undefined
  }
}
