// The recall section of a profile (SPEC §17): search what was said, with keywords and, given an
// embeddings model, vectors; its form with texts, and its checks.
import Schema from 'schemastery'
import { isBoolean, knownModelOrNone } from '../config/checks'
import type { ConfigSection } from '../config/section'
import enUS from './config.en-US.yml'
import zhCN from './config.zh-CN.yml'

export interface RecallConfig {
  /** offer the search tool */
  enabled: boolean
  /** an OpenAI-compatible /v1/embeddings model id from `models`; '' keyword ranking only */
  embeddingModel: string
}

export const DEFAULT_RECALL: Readonly<RecallConfig> = { enabled: true, embeddingModel: '' }

function schema(): Schema<any, RecallConfig> {
  return Schema.object({
    enabled: Schema.boolean().default(DEFAULT_RECALL.enabled),
    embeddingModel: Schema.string().default(DEFAULT_RECALL.embeddingModel),
  }).i18n({ 'zh-CN': zhCN, 'en-US': enUS }) as Schema<any, RecallConfig>
}

export const recallSection: ConfigSection<RecallConfig> = {
  key: 'recall', default: DEFAULT_RECALL, schema, checks: { enabled: isBoolean, embeddingModel: knownModelOrNone },
}
