// An OpenAI-compatible chat endpoint (SPEC §11), with what kotodama adjusts beside the provider's
// own mapping (wire-format.ts): reasoning_content returned or not, DeepSeek's and Moonshot's cache
// fields, the neutral history (neutral.ts), and two things of Gemini's OpenAI endpoint: its thought
// signatures, which @ai-sdk/openai-compatible stores under the provider's name but writes back only
// from `google` (the second step of a tool loop would get HTTP 400 "Function call is missing a
// thought_signature"), and its error bodies, a JSON array the default error schema cannot read.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { wrapLanguageModel, type LanguageModel } from 'ai'
import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider'
import { z } from 'zod'
import type { ModelConfig } from '../../config/types'
import { reasoningField, wireUsage } from '../wire-format'
import { neutralPrompt } from './neutral'

/** the provider's name: the key its metadata is stored under */
export const COMPATIBLE_NAME = 'kotodama'

const errorBody = z.object({
  error: z.object({ message: z.string(), type: z.string().nullish(), param: z.any().nullish(), code: z.union([z.string(), z.number()]).nullish() }).passthrough(),
}).passthrough()
/** an object, as OpenAI sends it, or an array of them, as Gemini's OpenAI endpoint does */
const errorSchema = z.union([errorBody, z.array(errorBody).min(1)])
type ErrorData = z.infer<typeof errorSchema>

/** Tool calls of this provider carry their Gemini signature where the SDK writes it back from. */
function withSignatures(prompt: LanguageModelV3Prompt): LanguageModelV3Prompt {
  let changed = false
  const out = prompt.map(m => {
    if (m.role !== 'assistant') return m
    let own = false
    const content = m.content.map(p => {
      const signature = p.type === 'tool-call' ? p.providerOptions?.[COMPATIBLE_NAME]?.thoughtSignature : undefined
      if (signature === undefined || p.providerOptions?.google?.thoughtSignature) return p
      own = true
      return { ...p, providerOptions: { ...p.providerOptions, google: { thoughtSignature: signature } } }
    })
    if (!own) return m
    changed = true
    return { ...m, content }
  })
  return changed ? out as LanguageModelV3Prompt : prompt
}

export function compatibleProvider(config: ModelConfig, returns: () => boolean) {
  return createOpenAICompatible({
    name: COMPATIBLE_NAME,
    baseURL: config.baseURL.replace(/\/+$/, ''),
    apiKey: config.apiKey || undefined,
    includeUsage: true,
    transformRequestBody: body => reasoningField(body, returns()),
    convertUsage: wireUsage,
    errorStructure: {
      errorSchema,
      errorToMessage: (data: ErrorData) => (Array.isArray(data) ? data[0] : data).error.message,
    },
  } as Parameters<typeof createOpenAICompatible>[0])
}

export function compatibleModel(provider: ReturnType<typeof compatibleProvider>, config: ModelConfig): LanguageModel {
  return wrapLanguageModel({
    model: provider.chatModel(config.model) as LanguageModelV3,
    middleware: {
      specificationVersion: 'v3',
      transformParams: async ({ params }) => ({ ...params, prompt: withSignatures(neutralPrompt(params.prompt, COMPATIBLE_NAME)) }),
    },
  })
}
