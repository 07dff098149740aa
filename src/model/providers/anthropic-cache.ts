// Anthropic caches nothing unless asked (SPEC §11.1, §16): breakpoints go where the layout makes
// the prefix repeat. One on the system prompt (the cache covers tools, then system), and up to three
// on the history: at the end of this request, which the next one repeats, and a staircase back from
// it at most 18 blocks apart, since a breakpoint finds an earlier cache only within the 20 blocks
// before it ("Prompt caching": lookback). Never more than 4. A stable prefix under the model's
// minimum is never cached: the owner is told once per model.
import type { LanguageModelV3Message, LanguageModelV3Middleware, LanguageModelV3Prompt } from '@ai-sdk/provider'
import type { Logger } from '../../util/logger'

const MAX_BREAKPOINTS = 4
/** blocks between two breakpoints of the staircase: under the 20 a breakpoint looks back */
const STEP = 18
/** rough tokens of text (English ≈ 4 characters a token, Chinese nearer 1.5: the estimate errs low for it) */
const tokens = (chars: number) => Math.ceil(chars / 4)

/** Anthropic's minimum cacheable prompt by model ("Prompt caching": cache limitations). */
export function minimumCacheable(model: string): number {
  if (/opus-4-5|haiku-4-5/.test(model)) return 4096
  if (/haiku/.test(model)) return 2048
  return 1024
}

type Ttl = '5m' | '1h'
const mark = (m: LanguageModelV3Message, ttl: Ttl): LanguageModelV3Message => {
  const cacheControl = { type: 'ephemeral', ...ttl === '1h' ? { ttl } : {} }
  return { ...m, providerOptions: { ...m.providerOptions, anthropic: { ...m.providerOptions?.anthropic, cacheControl } } } as LanguageModelV3Message
}

const blocks = (m: LanguageModelV3Message) => typeof m.content === 'string' ? 1 : Math.max(1, m.content.length)

/** The prompt with its breakpoints. */
export function withBreakpoints(prompt: LanguageModelV3Prompt, ttl: Ttl): LanguageModelV3Prompt {
  const out = prompt.slice()
  let left = MAX_BREAKPOINTS
  const lastSystem = out.map(m => m.role).lastIndexOf('system')
  if (lastSystem >= 0) {
    out[lastSystem] = mark(out[lastSystem], ttl)
    left--
  }
  // the staircase, from the newest message back: each next breakpoint at most STEP blocks before the last
  let k = out.length - 1
  while (left > 0 && k > lastSystem) {
    out[k] = mark(out[k], ttl)
    left--
    let sum = 0
    let j = k
    while (j - 1 > lastSystem && sum + blocks(out[j]) <= STEP) sum += blocks(out[j--])
    // the start of the history is within this breakpoint's look back: one more would add nothing
    if (j - 1 <= lastSystem && sum + blocks(out[j]) <= STEP) break
    k = j === k ? k - 1 : j
  }
  return out
}

export function anthropicCache(o: { model: string; id: string; ttl: Ttl; logger?: Logger }): LanguageModelV3Middleware {
  // looked at once: the system prompt and tools change only with memory and the tool list
  let looked = false
  return {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => {
      if (!looked && o.logger) {
        looked = true
        const system = params.prompt.filter(m => m.role === 'system').reduce((n, m) => n + (m.content as string).length, 0)
        const chars = system + JSON.stringify(params.tools ?? []).length
        const min = minimumCacheable(o.model)
        if (tokens(chars) < min) {
          o.logger.info('model %s: the stable prefix (system prompt and tools, about %d tokens) is under %s\'s minimum of %d: '
            + 'Anthropic caches only the requests whose history makes up the rest', o.id, tokens(chars), o.model, min)
        }
      }
      return { ...params, prompt: withBreakpoints(params.prompt, o.ttl) }
    },
  }
}
