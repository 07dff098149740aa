// Recall (SPEC §17, docs/recall.md): search over what was said, and history:// pages.
export { Recall, type RecallDeps } from './recall'
export type { SearchHit } from './search'
export { DEFAULT_TUNING, type IndexTuning } from './merge-policy'
