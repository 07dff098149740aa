// DeepSeek's thinking mode as its guide describes it ("thinking_mode#tool-calls", api-docs.deepseek.com):
// an assistant message that made tool calls must carry its reasoning_content in *all* later
// requests, or the API answers HTTP 400 "The reasoning_content in the thinking mode must be passed
// back to the API." An omitted field is refused even where the reasoning was empty
// (deepseek-harness #739). The rule is enforced per call: the reasoning a call was issued with
// (known by its name and arguments, since kotodama sends its own call ids) and, by call id, the
// reasoning first sent back with it must come back unchanged.
import type { FakeReply, Guard, RecordedRequest } from './fake-openai'

export const DEEPSEEK_400 = 'The reasoning_content in the thinking mode must be passed back to the API.'

/** A call by its name and arguments (keys sorted: a client may reorder them). */
function signature(name: string, args: unknown): string {
  let value = args
  if (typeof args === 'string') try { value = JSON.parse(args) } catch {}
  const sorted = (v: any): any => Array.isArray(v) ? v.map(sorted) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map(k => [k, sorted(v[k])])) : v
  return `${name}\u0000${JSON.stringify(sorted(value ?? {}))}`
}

export class DeepSeekThinking {
  /** reasoning issued with each call, by signature */
  private issued = new Map<string, string>()
  /** reasoning first returned with each call id */
  private returned = new Map<string, string>()
  readonly refusals: number[] = []

  /** The guard for FakeOpenAI.guard(). */
  readonly guard: Guard = (req: RecordedRequest) => {
    for (const m of req.body?.messages ?? []) {
      if (m.role !== 'assistant' || !m.tool_calls?.length) continue
      const back = m.reasoning_content
      const wrong = typeof back !== 'string' || m.tool_calls.some((c: any) => {
        const issued = this.issued.get(signature(c.function?.name, c.function?.arguments))
        const first = this.returned.get(c.id)
        return (issued !== undefined && issued !== back) || (first !== undefined && first !== back)
      })
      if (wrong) {
        this.refusals.push(req.index)
        return { status: 400, error: DEEPSEEK_400 }
      }
      for (const c of m.tool_calls) if (!this.returned.has(c.id)) this.returned.set(c.id, back)
    }
    return undefined
  }

  /** A thinking reply: its calls are remembered with their reasoning. */
  reply(r: FakeReply & { reasoning: string }): FakeReply {
    for (const c of r.toolCalls ?? []) this.issued.set(signature(c.name, c.arguments), r.reasoning)
    return r
  }
}
