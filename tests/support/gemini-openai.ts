// Gemini's OpenAI-compatible endpoint (generativelanguage.googleapis.com/v1beta/openai/) as a guard
// and reply helper for FakeOpenAI's chat route. Follows Gemini's "OpenAI compatibility" page
// (thought signatures: a tool call carries `extra_content: { google: { thought_signature } }`) and
// "Thought signatures" (Gemini 3 validates the current turn; parallel calls: only the first is signed).
// The endpoint's errors are a JSON array, `[{ "error": { code, message, status } }]`, as clients
// report them (e.g. manthanabc/paws #103, niki914/zafiro #100).
//
// Rule: in the current turn (the messages after the last user message), the first tool call of each
// assistant message, and every call this helper signed, must come back with its signature: else 400
// "Function call is missing a thought_signature ..."; a signature not issued for that call id is 400
// "Corrupted thought signature."; the sentinel counts as missing while `refuseSentinel` is on.
import type { FakeReply, Guard, RecordedRequest } from './fake-openai'
import { CORRUPTED_SIGNATURE, missingSignature, SKIP_SIGNATURE } from './fakes/wire/gemini'

export { CORRUPTED_SIGNATURE, missingSignature, SKIP_SIGNATURE } from './fakes/wire/gemini'

/** The endpoint's error body: an array of one error. */
export function geminiOpenAIErrorBody(message: string, code = 400, status = 'INVALID_ARGUMENT'): unknown[] {
  return [{ error: { code, message, status } }]
}

export interface GeminiOpenAIOptions {
  /** the sentinel counts as a missing signature; default true */
  refuseSentinel?: boolean
  /** sign only the first call of a reply (Gemini 3, the default) or each one */
  parallelSignatures?: 'first' | 'each'
}

/** A tool call's signature as sent back. */
export function signatureOf(toolCall: any): string | undefined {
  return toolCall?.extra_content?.google?.thought_signature
}

export class GeminiOpenAISignatures {
  /** call id → the signature issued with it */
  readonly issued = new Map<string, string>()
  /**
   * signature → the call it was issued for (name and arguments). A signature belongs to the call's
   * content, not to its id: Gemini has no call ids, and a client may number calls its own way.
   */
  private calledAs = new Map<string, string>()
  /** indexes of the refused requests */
  readonly refusals: number[] = []
  private calls = 0

  constructor(private o: GeminiOpenAIOptions = {}) {}

  /** A Gemini 3 reply: each call gets an id (if it has none) and the first, or each, a signature. */
  reply(r: FakeReply): FakeReply {
    const toolCalls = (r.toolCalls ?? []).map((tc, i) => {
      const id = tc.id ?? `gemini_call_${++this.calls}`
      if (i > 0 && this.o.parallelSignatures !== 'each') return { ...tc, id }
      const signature = Buffer.from(`fake-openai-thought-signature:${id}`).toString('base64')
      this.issued.set(id, signature)
      this.calledAs.set(signature, callKey(tc.name, tc.arguments))
      return { ...tc, id, extra_content: { google: { thought_signature: signature } } }
    })
    return toolCalls.length ? { ...r, toolCalls } : r
  }

  /** The guard for FakeOpenAI.guard(). */
  readonly guard: Guard = (req: RecordedRequest) => {
    const refused = this.refusal(req.body?.messages ?? [])
    if (!refused) return undefined
    this.refusals.push(req.index)
    return { status: 400, body: geminiOpenAIErrorBody(refused) }
  }

  private refusal(messages: any[]): string | undefined {
    const refuseSentinel = this.o.refuseSentinel ?? true
    const start = messages.map((m) => m.role).lastIndexOf('user')
    for (let i = start + 1; i < messages.length; i++) {
      const m = messages[i]
      if (m.role !== 'assistant' || !m.tool_calls?.length) continue
      for (const [j, tc] of m.tool_calls.entries()) {
        const signature = signatureOf(tc)
        const key = callKey(tc.function?.name, tc.function?.arguments)
        if (typeof signature === 'string' && signature !== SKIP_SIGNATURE) {
          if (this.calledAs.get(signature) !== key) return CORRUPTED_SIGNATURE
        } else if (signature !== SKIP_SIGNATURE || refuseSentinel) {
          if (j === 0 || [...this.calledAs.values()].includes(key)) return missingSignature(tc.function?.name, contentPosition(messages, i))
        }
      }
    }
    return undefined
  }
}

/** A call by its content: its name and its arguments with sorted keys (JSON text or an object). */
function callKey(name: unknown, args: unknown): string {
  let value = args
  if (typeof args === 'string') try { value = JSON.parse(args) } catch { value = args }
  const sorted = (v: any): any => Array.isArray(v) ? v.map(sorted) : v && typeof v === 'object'
    ? Object.fromEntries(Object.keys(v).sort().map(k => [k, sorted(v[k])])) : v
  return `${String(name)}\u0000${JSON.stringify(sorted(value ?? {}))}`
}

/** Where message i lands in Gemini's contents (from 1): system messages leave, runs of tool results merge. */
function contentPosition(messages: any[], i: number): number {
  let position = 0
  messages.slice(0, i + 1).forEach((m, k) => {
    if (m.role === 'system' || m.role === 'developer') return
    if (m.role === 'tool' && messages[k - 1]?.role === 'tool') return
    position++
  })
  return position
}
