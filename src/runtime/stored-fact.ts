// A fact as a conversation stores it, live or pulled after downtime: its media claimed by the place
// that received it (SPEC §22), a long text archived and shortened, configured secrets masked (SPEC §10).
import type { Fact } from '../history/entries'
import { placeOfFact } from '../history/place'
import type { ArtifactStore } from '../resources/schemes/artifact-store'
import type { AssetStore } from '../resources/schemes/asset-store'
import type { Logger } from '../util/logger'
import type { Redactor } from '../util/redact'
import { claimAssets } from './asset-claims'
import { shortenFact } from './long-facts'

export interface FactStoring {
  assets: AssetStore
  artifacts: ArtifactStore
  logger: Logger
  redact?: Redactor
}

/**
 * `fact` as it arrived (its media are claimed) in `conversation`; `kept`: what of it is stored
 * (a live fact's quote is kept only when the conversation holds it). A failure to claim or
 * archive is logged and the fact stored as it is.
 */
export async function storedFact(fact: Fact, conversation: string, s: FactStoring, kept = fact): Promise<Fact> {
  const place = placeOfFact(fact, conversation)
  let stored = kept
  try {
    await claimAssets(s.assets, fact, place)
    stored = await shortenFact(kept, s.artifacts, place)
  } catch (e: any) {
    s.logger.warn('could not claim the media or archive a long message: %s', e?.message ?? e)
  }
  return s.redact ? s.redact.value(stored) : stored
}
