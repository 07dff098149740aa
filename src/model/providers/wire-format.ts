// What kotodama adjusts in the OpenAI-compatible wire format, beside the provider's own mapping.
// - reasoning_content on assistant messages (SPEC §11): returned, an empty string where a step had
//   none (DeepSeek refused a tool-call message whose field was omitted, deepseek-harness #739),
//   or never sent at all.
// - usage: DeepSeek reports cached prompt tokens as `prompt_cache_hit_tokens`, OpenAI-style servers
//   as `prompt_tokens_details.cached_tokens`, Moonshot's older models as `cached_tokens`; all are read
//   (SPEC §11 "Usage").
import type { LanguageModelV3Usage } from '@ai-sdk/provider'

export function reasoningField(body: Record<string, any>, returns: boolean): Record<string, any> {
  const messages = body.messages
  if (!Array.isArray(messages)) return body
  let changed = false
  const out = messages.map(m => {
    if (m?.role !== 'assistant') return m
    const has = typeof m.reasoning_content === 'string'
    if (returns && !has) {
      changed = true
      return { ...m, reasoning_content: '' }
    }
    if (!returns && 'reasoning_content' in m) {
      changed = true
      const { reasoning_content: _, ...rest } = m
      return rest
    }
    return m
  })
  return changed ? { ...body, messages: out } : body
}

const num = (v: unknown): number | undefined => typeof v === 'number' && Number.isFinite(v) ? v : undefined

export function wireUsage(u: Record<string, any> | null | undefined): LanguageModelV3Usage {
  if (u == null) {
    return {
      inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: undefined, text: undefined, reasoning: undefined },
      raw: undefined,
    }
  }
  const prompt = num(u.prompt_tokens) ?? 0
  const completion = num(u.completion_tokens) ?? 0
  // Moonshot's older models report a top-level `cached_tokens`
  const cached = num(u.prompt_tokens_details?.cached_tokens) ?? num(u.prompt_cache_hit_tokens) ?? num(u.cached_tokens) ?? 0
  const reasoning = num(u.completion_tokens_details?.reasoning_tokens) ?? 0
  return {
    inputTokens: { total: prompt, noCache: prompt - cached, cacheRead: cached, cacheWrite: undefined },
    outputTokens: { total: completion, text: Math.max(0, completion - reasoning), reasoning },
    raw: u as any,
  }
}
