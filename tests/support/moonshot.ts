// Moonshot's Kimi K2 thinking models (platform.moonshot.ai, "Kimi K2 thinking" / "kimi-k2.5 quickstart",
// tool use compatibility) as a guard for FakeOpenAI, like deepseek.ts: an assistant message with
// tool_calls must carry `reasoning_content` in every later request, or the API answers HTTP 400
// "thinking is enabled but reasoning_content is missing in assistant tool call message at index N"
// (invalid_request_error; openai-agents-python #2669, bytedance/deer-flow #3043). Unlike DeepSeek's
// check, only the field's presence counts: clients that send "" pass (earendil-works/pi #987).
// Older Moonshot models report cached tokens as a top-level `usage.cached_tokens` ("Context
// caching"); newer ones as prompt_tokens_details.cached_tokens, which the chat wire already sends.
import type { ChatUsage } from './fakes/wire/openai-chat'
import type { Guard, RecordedRequest } from './fake-openai'

/** Moonshot's refusal; `index` is the message's place in `messages`, from 0. */
export function moonshot400(index: number): string {
  return `thinking is enabled but reasoning_content is missing in assistant tool call message at index ${index}`
}

/** The usage of an older Moonshot model: cached tokens at the top level of usage. */
export function moonshotUsage(cached: number, o: Omit<ChatUsage, 'extra'> = {}): ChatUsage {
  return { ...o, extra: { cached_tokens: cached } }
}

export class MoonshotThinking {
  /** indexes of the refused requests */
  readonly refusals: number[] = []

  /** The guard for FakeOpenAI.guard(). */
  readonly guard: Guard = (req: RecordedRequest) => {
    const messages: any[] = req.body?.messages ?? []
    const index = messages.findIndex((m) => m.role === 'assistant' && m.tool_calls?.length && typeof m.reasoning_content !== 'string')
    if (index < 0) return undefined
    this.refusals.push(req.index)
    return { status: 400, error: moonshot400(index) }
  }
}
