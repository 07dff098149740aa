// Messages said while the bot was away (SPEC §19 "History after downtime"): the edge fetches them
// from the platform and hands them here, oldest first. They are stored as facts of their
// conversation like live ones (long ones archived, secrets masked) but never wake the mind, and a
// message the conversation already holds is skipped: pulled twice, or pulled and delivered live.
import type { Fact } from '../history/entries'
import type { HistorySide } from '../history/sides'
import type { ArtifactStore } from '../resources/schemes/artifact-store'
import type { Logger } from '../util/logger'
import type { Redactor } from '../util/redact'
import type { Conversation } from './conversation'
import type { AssetStore } from '../resources/schemes/asset-store'
import type { PullPoint, PulledStore } from '../history-pull/ports'
import { activeSince } from '../history/active-since'
import { storedFact } from './stored-fact'

export type { PullPoint } from '../history-pull/ports'

/** What the store needs of its runtime (a structural view: runtime.ts composes it in one line). */
export interface PulledSide {
  readonly profile: { mode: string }
  readonly artifacts: ArtifactStore
  readonly assets: AssetStore
  readonly logger: Logger
  readonly options: { redact?: Redactor }
  conversationKey(channel: string): string
  history(): HistorySide
}

type Using = <T>(key: string, fn: (conv: Conversation) => T | Promise<T>) => Promise<T>

export class PulledFacts implements PulledStore {
  constructor(private side: PulledSide, private using: Using, private stopped: () => boolean) {}

  /** Keys of the conversations with a stored history (with `since`, ms: those active since then): a start pulls for these. */
  conversations(since?: number): Promise<string[]> {
    return since === undefined ? this.side.history().keys() : activeSince(this.side.history(), since)
  }

  /**
   * The channels a conversation holds facts of, each with its newest fact: the conversation's own
   * channel in channel mode (also when it holds none yet), every channel it heard in cross mode.
   */
  async points(key: string): Promise<PullPoint[]> {
    if (this.stopped()) return []
    return this.using(key, conv => {
      const found = newestFacts(conv, this.side.profile.mode === 'cross' ? undefined : key)
      if (this.side.profile.mode !== 'cross' && !found.size) return [{ channel: key }]
      return [...found].map(([channel, last]) => ({ channel, last }))
    })
  }

  /** The newest fact of `channel` its conversation holds; undefined when it holds none. */
  async last(channel: string): Promise<Fact | undefined> {
    if (this.stopped()) return undefined
    return this.using(this.side.conversationKey(channel), conv => newestFacts(conv, channel).get(channel))
  }

  /**
   * Stores facts pulled from the platform, oldest first, without waking the mind. Returns how many
   * were new (the others were held already); false when the runtime stopped before it was done.
   */
  async store(facts: Fact[]): Promise<number | false> {
    let stored = 0
    for (const [key, group] of byConversation(facts, c => this.side.conversationKey(c))) {
      const done = await this.using(key, async conv => {
        for (const fact of group) {
          if (this.stopped()) return false
          if (conv.holds(fact.channel, fact.id)) continue
          const { assets, artifacts, logger, options } = this.side
          const kept = await storedFact({ ...fact, pulled: true }, key, { assets, artifacts, logger, redact: options.redact })
          if (this.stopped() || !conv.receive(kept)) return false
          stored++
        }
        return true
      })
      if (!done) return false
    }
    return stored
  }

}

/** The newest fact of each channel in the conversation's tail (of `only`, when given). */
function newestFacts(conv: Conversation, only?: string): Map<string, Fact> {
  const found = new Map<string, Fact>()
  const entries = conv.entries
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]
    if (e.type !== 'fact' || found.has(e.fact.channel) || (only !== undefined && e.fact.channel !== only)) continue
    found.set(e.fact.channel, e.fact)
    if (only !== undefined) break
  }
  return found
}

function byConversation(facts: Fact[], keyOf: (channel: string) => string): Map<string, Fact[]> {
  const out = new Map<string, Fact[]>()
  for (const f of facts) {
    const key = keyOf(f.channel)
    const list = out.get(key)
    if (list) list.push(f)
    else out.set(key, [f])
  }
  return out
}
