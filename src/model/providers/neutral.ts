// One provider-neutral history (SPEC §11.1): a step keeps what its provider attached (Anthropic's
// thinking signatures, Gemini's thought signatures, OpenAI's encrypted reasoning, an
// OpenAI-compatible server's reasoning), and each request gives it only to the provider that made
// it. After a failover the other model reads the same words and tool calls without foreign
// signatures; a step that held only foreign reasoning is left out, and no tool call loses its result.
import type { LanguageModelV3Message, LanguageModelV3Middleware, LanguageModelV3Prompt, SharedV3ProviderOptions } from '@ai-sdk/provider'

/** The provider-metadata keys each kind of provider writes; the openai-compatible one writes under its name. */
export type Origin = 'anthropic' | 'google' | 'openai' | 'kotodama'
const ORIGINS: readonly Origin[] = ['anthropic', 'google', 'openai', 'kotodama']

/** The provider that made a part, by its metadata; undefined when none did (plain words, our own reasoning). */
function madeBy(o: SharedV3ProviderOptions | undefined): Origin | undefined {
  if (!o) return undefined
  return ORIGINS.find(k => k in o && k !== 'kotodama') ?? (o.kotodama ? 'kotodama' : undefined)
}

/** `o` without other providers' keys; the same object when nothing is foreign. */
function ownOnly(o: SharedV3ProviderOptions | undefined, own: Origin): SharedV3ProviderOptions | undefined {
  if (!o) return o
  const foreign = ORIGINS.filter(k => k !== own && k in o)
  if (!foreign.length) return o
  const out = { ...o }
  for (const k of foreign) delete out[k]
  return Object.keys(out).length ? out : undefined
}

function assistantFor(m: Extract<LanguageModelV3Message, { role: 'assistant' }>, own: Origin): LanguageModelV3Message | undefined {
  let changed = false
  const content: typeof m.content = []
  for (const part of m.content) {
    if (part.type === 'reasoning') {
      const by = madeBy(part.providerOptions)
      // a native provider takes back only its own reasoning; an OpenAI-compatible server takes reasoning_content
      // (its own, a <think> block's) but never a native provider's signed blocks
      const keep = own === 'kotodama' ? !by || by === 'kotodama' : by === own
      if (!keep) { changed = true; continue }
    }
    const options = ownOnly(part.providerOptions, own)
    if (options !== part.providerOptions) {
      changed = true
      content.push({ ...part, providerOptions: options } as typeof part)
    } else content.push(part)
  }
  if (!changed) return m
  return content.length ? { ...m, content } : undefined
}

/** The prompt as provider `own` may read it. */
export function neutralPrompt(prompt: LanguageModelV3Prompt, own: Origin): LanguageModelV3Prompt {
  let changed = false
  const out: LanguageModelV3Prompt = []
  for (const m of prompt) {
    const next = m.role === 'assistant' ? assistantFor(m, own) : m
    if (next !== m) changed = true
    if (next) out.push(next)
  }
  return changed ? out : prompt
}

export function neutralHistory(own: Origin): LanguageModelV3Middleware {
  return {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => ({ ...params, prompt: neutralPrompt(params.prompt, own) }),
  }
}
