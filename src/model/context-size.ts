// Context size (SPEC §11). With `models[].contextTokens` set, the request window is trimmed so its
// estimated tokens plus 20% for the reply fit the server's window; the estimate is characters
// divided by a chars-per-token ratio learned from the server's reported usage (starting at 2).
// A server that reports fewer prompt tokens than the request must hold (one per 6 UTF-16 units)
// cut the prompt: that is logged once per model, with the likely cause.
import type { Tool } from '../contract/tool'
import type { Logger } from '../util/logger'
import type { PublicModelConfig } from './provider'
import { schemaChars } from './sdk-schema'

const START_RATIO = 2
/**
 * No text has fewer than one token per this many units; below it the server truncated. English
 * prose runs at 4 to 4.5 units a token (Qwen3, DeepSeek), so 4 warned of cuts that were not; a cut
 * prompt (a 2,048-token window under a 20,000-token request) is 10 and more.
 */
const MAX_UNITS_PER_TOKEN = 6
const REPLY_SHARE = 0.2

interface Known {
  ratio: number
  warned: boolean
}

export class ContextSizes {
  private models = new Map<string, Known>()

  constructor(private logger: Logger) {}

  private of(id: string): Known {
    let k = this.models.get(id)
    if (!k) this.models.set(id, k = { ratio: START_RATIO, warned: false })
    return k
  }

  ratio(id: string): number {
    return this.of(id).ratio
  }

  /**
   * Characters the history window may hold for this model, or undefined when its window is
   * unknown. `fixedChars`: the system prompt and the tool declarations sent with every request.
   */
  windowChars(config: PublicModelConfig, fixedChars: number): number | undefined {
    if (!(config.contextTokens > 0)) return undefined
    const ratio = this.ratio(config.id)
    const tokens = config.contextTokens * (1 - REPLY_SHARE) - fixedChars / ratio
    return Math.max(0, Math.floor(tokens * ratio))
  }

  /**
   * Learns from one answered request. `textChars`: its system prompt and messages; `toolChars`:
   * its tool declarations, which servers count in different ways, so only the ratio uses them.
   */
  observe(config: PublicModelConfig, textChars: number, toolChars: number, promptTokens: number | undefined): void {
    if (!(promptTokens > 0) || textChars <= 0) return
    const k = this.of(config.id)
    if (promptTokens * MAX_UNITS_PER_TOKEN < textChars) {
      if (!k.warned) {
        k.warned = true
        this.logger.warn(
          'model "%s" counted %d prompt tokens for a request of %d characters (at least %d tokens): '
          + 'the server cut the prompt to its own context length, so the mind may have lost its instructions. '
          + 'Raise the server\'s context length (Ollama: OLLAMA_CONTEXT_LENGTH or the model\'s num_ctx; llama.cpp: --ctx-size; vLLM: --max-model-len) '
          + 'and set models[].contextTokens to it.',
          config.id, promptTokens, textChars, Math.ceil(textChars / MAX_UNITS_PER_TOKEN))
      }
      return   // a cut prompt says nothing about the ratio
    }
    const sample = (textChars + toolChars) / promptTokens
    k.ratio = Math.min(8, Math.max(0.5, k.ratio * 0.7 + sample * 0.3))
  }
}

/** Characters the tool declarations add to every request (each schema measured once, sdk-schema.ts). */
export function declaredChars(tools: Map<string, Tool>): number {
  let total = 0
  for (const [name, t] of tools) total += name.length + t.description.length + schemaChars(t.inputSchema)
  return total
}
