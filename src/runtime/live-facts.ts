// Messages as they arrive (SPEC §4): a claimed message is stored as a fact of its conversation —
// a quote's text only when the conversation holds the quoted message (SPEC §22), its media claimed,
// a long text archived, secrets masked — and a turn starts when the wake engine says so.
import type { Fact } from '../history/entries'
import type { ArtifactStore } from '../resources/schemes/artifact-store'
import type { AssetStore } from '../resources/schemes/asset-store'
import type { Logger } from '../util/logger'
import type { Redactor } from '../util/redact'
import type { ChannelMemory } from './channel-memory'
import type { Conversation } from './conversation'
import { heldQuote } from './quote-held'
import { storedFact } from './stored-fact'

/** What live facts need of their runtime (a structural view, as pulled-facts.ts has). */
export interface LiveSide {
  readonly artifacts: ArtifactStore
  readonly assets: AssetStore
  readonly logger: Logger
  readonly options: { redact?: Redactor }
  readonly channels: ChannelMemory
  conversationKey(channel: string): string
}

export interface LivePorts {
  using<T>(key: string, fn: (conv: Conversation) => T | Promise<T>): Promise<T>
  stopped(): boolean
  /** why the fact wakes the mind (the wake engine's answer); undefined: it does not */
  wakeOf(fact: Fact): string | undefined
}

export class LiveFacts {
  constructor(private side: LiveSide, private ports: LivePorts) {}

  /** Stores `fact`; false when the runtime stopped before it was stored (the caller hands it on). */
  async receive(fact: Fact): Promise<boolean> {
    const { side, ports } = this
    if (ports.stopped()) return false
    side.channels.heard(fact)
    const wake = ports.wakeOf(fact)
    const key = side.conversationKey(fact.channel)
    return ports.using(key, async conv => {
      const kept = heldQuote(fact, (channel, id) => conv.holds(channel, id))
      const storing = { assets: side.assets, artifacts: side.artifacts, logger: side.logger, redact: side.options.redact }
      const stored = await storedFact(fact, key, storing, kept)
      if (ports.stopped()) return false
      return conv.receive(stored, wake)
    })
  }
}
