// One AI SDK model per `models` entry (SPEC §1). The handle carries the entry without its apiKey:
// the key lives only inside the provider, so nothing that receives a handle can log or leak it.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModel } from 'ai'
import type { ModelConfig } from '../config/types'
import { withDialect } from './dialects'
import type { ReasoningModes } from './reasoning-mode'
import { reasoningField, wireUsage } from './wire-format'

export type PublicModelConfig = Omit<ModelConfig, 'apiKey'>

export interface ModelHandle {
  config: PublicModelConfig
  model: LanguageModel
  /** after a failed request: true when the model now returns its reasoning and the step may be tried again (SPEC §11) */
  learn?(error: unknown): boolean
  /** the entry as an OpenAI-compatible /v1/embeddings model (recall.embeddingModel, SPEC §17); uncounted: called by ModelCalls */
  embedding?(values: string[], signal?: AbortSignal): Promise<{ embeddings: number[][]; tokens?: number }>
  /** the same, counted: only on the handles ModelCalls.handle gives */
  embed?(values: string[], signal?: AbortSignal): Promise<number[][]>
}

export function createModel(config: ModelConfig, reasoning?: ReasoningModes): ModelHandle {
  const { apiKey, ...visible } = config
  const returns = () => reasoning ? reasoning.returns(config) : config.reasoning === 'return'
  const provider = createOpenAICompatible({
    name: 'kotodama',
    baseURL: config.baseURL.replace(/\/+$/, ''),
    apiKey: apiKey || undefined,
    includeUsage: true,
    transformRequestBody: body => reasoningField(body, returns()),
    convertUsage: wireUsage,
  })
  return {
    config: Object.freeze(visible),
    // text dialects wrap the model in a tool-call parser (SPEC §11, dialects.ts)
    model: withDialect(provider.chatModel(config.model), config.toolCalls),
    ...(reasoning ? { learn: (e: unknown) => reasoning.learn(config, e) } : {}),
    embedding: async (values, signal) => {
      const r = await provider.embeddingModel(config.model).doEmbed({ values, abortSignal: signal })
      return { embeddings: r.embeddings, tokens: r.usage?.tokens }
    },
  }
}
