// The providers' own APIs (SPEC §11.1), each through its AI SDK package of the `ai` 6 line:
// Anthropic's Messages API (with the cache breakpoints of anthropic-cache.ts), Gemini's API, and
// OpenAI's Responses API with `store: false` and the encrypted reasoning that carries its thinking
// across steps. Every request reads one neutral history (neutral.ts).
import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import { wrapLanguageModel, type LanguageModel } from 'ai'
import type { LanguageModelV3, LanguageModelV3Middleware, LanguageModelV3Prompt } from '@ai-sdk/provider'
import type { ModelConfig } from '../../config/types'
import type { Logger } from '../../util/logger'
import { anthropicCache } from './anthropic-cache'
import { neutralHistory } from './neutral'

const base = (config: ModelConfig) => config.baseURL.replace(/\/+$/, '')

/** OpenAI's Responses API keeps nothing and hands its reasoning back encrypted ("Reasoning": stateless use). */
const stateless: LanguageModelV3Middleware = {
  specificationVersion: 'v3',
  transformParams: async ({ params }) => ({
    ...params,
    providerOptions: {
      ...params.providerOptions,
      openai: { store: false, include: ['reasoning.encrypted_content'], ...params.providerOptions?.openai },
    },
  }),
}

/**
 * Anthropic may not think in a tool loop whose earlier steps came back without their thinking
 * ("Extended thinking": thinking cannot be toggled inside an assistant turn): a step another model
 * answered after a failover has none, so that request goes without thinking.
 */
function loopWithoutThinking(prompt: LanguageModelV3Prompt): boolean {
  const lastUser = prompt.map(m => m.role).lastIndexOf('user')
  return prompt.slice(lastUser + 1).some(m => m.role === 'assistant' && m.content.some(p => p.type === 'tool-call')
    && !(m.content[0]?.type === 'reasoning' && m.content[0].providerOptions?.anthropic))
}

/** Extended thinking where `thinkingBudget` asks for it (SPEC §11.1 leaves it to the provider otherwise). */
function thinking(config: ModelConfig): LanguageModelV3Middleware[] {
  const budget = config.thinkingBudget ?? 0
  if (budget <= 0) return []
  const anthropic = config.provider === 'anthropic'
  const options = anthropic
    ? { anthropic: { thinking: { type: 'enabled', budgetTokens: budget } } }
    : { google: { thinkingConfig: { thinkingBudget: budget, includeThoughts: true } } }
  return [{
    specificationVersion: 'v3',
    transformParams: async ({ params }) => anthropic && loopWithoutThinking(params.prompt)
      ? params
      : { ...params, providerOptions: { ...params.providerOptions, ...options } },
  }]
}

export function nativeModel(config: ModelConfig, logger?: Logger): LanguageModel {
  const apiKey = config.apiKey || ''
  let model: LanguageModelV3
  const middleware: LanguageModelV3Middleware[] = []
  if (config.provider === 'anthropic') {
    model = createAnthropic({ baseURL: base(config), apiKey }).languageModel(config.model) as LanguageModelV3
    middleware.push(neutralHistory('anthropic'), anthropicCache({ model: config.model, id: config.id, ttl: config.cacheTtl ?? '5m', logger }))
  } else if (config.provider === 'google') {
    model = createGoogleGenerativeAI({ baseURL: base(config), apiKey }).languageModel(config.model) as LanguageModelV3
    middleware.push(neutralHistory('google'))
  } else {
    model = createOpenAI({ baseURL: base(config), apiKey }).responses(config.model) as LanguageModelV3
    middleware.push(neutralHistory('openai'), stateless)
  }
  if (config.provider !== 'openai') middleware.push(...thinking(config))
  return wrapLanguageModel({ model, middleware })
}
