// One AI SDK model per `models` entry (SPEC §1).
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModel } from 'ai'
import type { ModelConfig } from '../config/types'

export interface ModelHandle {
  config: ModelConfig
  model: LanguageModel
}

export function createModel(config: ModelConfig): ModelHandle {
  const provider = createOpenAICompatible({
    name: 'kotodama',
    baseURL: config.baseURL.replace(/\/+$/, ''),
    apiKey: config.apiKey || undefined,
    includeUsage: true,
  })
  return { config, model: provider.chatModel(config.model) }
}
