// One AI SDK model per `models` entry (SPEC §1). The handle carries the entry without its apiKey:
// the key lives only inside the provider, so nothing that receives a handle can log or leak it.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModel } from 'ai'
import type { ModelConfig } from '../config/types'
import { withDialect } from './dialects'

export type PublicModelConfig = Omit<ModelConfig, 'apiKey'>

export interface ModelHandle {
  config: PublicModelConfig
  model: LanguageModel
}

export function createModel(config: ModelConfig): ModelHandle {
  const { apiKey, ...visible } = config
  const provider = createOpenAICompatible({
    name: 'kotodama',
    baseURL: config.baseURL.replace(/\/+$/, ''),
    apiKey: apiKey || undefined,
    includeUsage: true,
  })
  // text dialects wrap the model in a tool-call parser (SPEC §11, dialects.ts)
  return { config: Object.freeze(visible), model: withDialect(provider.chatModel(config.model), config.toolCalls) }
}
