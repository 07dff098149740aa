// What the asset store keeps beside each asset's bytes (SPEC §5.4): `<id>.json`.
import type { FetchFailure } from './asset-fetch-failure'

export interface AssetSidecar {
  id: string
  source: string
  mediaTypeHint?: string
  filename?: string
  createdAt: string
  fetchedAt?: string
  mediaType?: string
  byteLength?: number
  /** of fetched media, which the sticker learner matches by it; made media (a drawing, a voice) have none */
  sha256?: string
  /** why the fetch when the message arrived failed; a read tries again (not when too large or not kept) */
  fetchFailure?: FetchFailure
  /** when its bytes were evicted to keep the store under its bound (asset-quota.ts) */
  evictedAt?: string
}
