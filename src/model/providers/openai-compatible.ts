// An OpenAI-compatible chat endpoint (SPEC §11), with what kotodama adjusts beside the provider's
// own mapping (wire-format.ts): reasoning_content returned or not, DeepSeek's and Moonshot's cache
// fields, the neutral history (neutral.ts), and two things of Gemini's OpenAI endpoint: its thought
// signatures, which @ai-sdk/openai-compatible stores under the provider's name but writes back only
// from `google` (the second step of a tool loop would get HTTP 400 "Function call is missing a
// thought_signature"), and its error bodies, a JSON array the default error schema cannot read.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { wrapLanguageModel, type LanguageModel } from 'ai'
import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider'
import type { ModelConfig } from '../../config/types'
import { reasoningField, wireUsage } from './wire-format'
import { neutralPrompt } from './neutral'

/** the provider's name: the key its metadata is stored under */
export const COMPATIBLE_NAME = 'kotodama'

/**
 * Gemini's OpenAI endpoint answers an error as a JSON array of them: its first, as OpenAI's shape,
 * so the SDK reads the server's words (the provider takes no error schema of its own).
 */
export const firstOfErrorArray = (inner: typeof fetch = fetch): typeof fetch => async (input, init) => {
  const res = await inner(input, init)
  if (res.ok || !(res.headers.get('content-type') ?? '').includes('json')) return res
  const text = await res.text()
  let body = text
  try {
    const data = JSON.parse(text)
    if (Array.isArray(data) && data[0]?.error) body = JSON.stringify(data[0])
  } catch {}
  const headers = new Headers(res.headers)
  headers.delete('content-length')
  return new Response(body, { status: res.status, statusText: res.statusText, headers })
}

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
    fetch: firstOfErrorArray(),
  })
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
