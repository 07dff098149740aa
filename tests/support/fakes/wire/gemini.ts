// The Gemini API wire (generativelanguage.googleapis.com/v1beta) for the scripted server. Follows the
// Gemini API reference "Generate content" (models.generateContent and models.streamGenerateContent,
// `alt=sse`: Content { role user|model, parts: text / inlineData / functionCall {name, args} /
// functionResponse {name, response} / thought / thoughtSignature }, systemInstruction,
// tools.functionDeclarations, generationConfig.thinkingConfig; GenerateContentResponse candidates[]
// content / finishReason / safetyRatings, promptFeedback.blockReason, usageMetadata), the guides
// "Thought signatures" and "Context caching" (implicit caching), and the API's error shape
// `{ error: { code, message, status } }` ("Troubleshooting").
//
// Rules it enforces before guards and script (see README.md, "Gemini"):
// - For models matching `signatureModels` (Gemini 3), in the current turn (the contents after the
//   last user content that is not only function responses) the first functionCall of every model
//   content, and every call the fake signed, must carry its thoughtSignature: else 400 "Function call
//   is missing a thought_signature ..."; a signature the fake did not issue for that call is 400
//   "Corrupted thought signature."; the sentinel counts as missing while `refuseSentinel` is on.
// - Implicit caching: `cachedContentTokenCount` is the estimate of the longest prefix (system
//   instruction, tools, then whole contents, per model) shared with an earlier answered request,
//   when at least `minCacheTokens`.
import { Delivery, Payload, RecordedRequest, sseEvent, Wire } from '../scripted-server'
import { halves } from './openai-chat'

/** The documented sentinel that skips signature validation; @ai-sdk/google substitutes it for a missing one. */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator'
export const CORRUPTED_SIGNATURE = 'Corrupted thought signature.'

/** Gemini's words for a missing signature; `position` is the model content's place in `contents`, from 1. */
export function missingSignature(name: string, position: number): string {
  return 'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing '
    + `thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${position}. `
    + 'Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.'
}

/** `/v1beta/models/<model>:generateContent` and `:streamGenerateContent` (the query, `alt=sse`, is apart). */
export const GEMINI_ROUTE = /\/v1beta\/models\/[^/:]+:(generateContent|streamGenerateContent)/

export interface GeminiCall {
  name: string
  args?: Record<string, unknown>
  /** sent as functionCall.id (the Gemini API leaves it out; the SDK then makes its own) */
  id?: string
}

export interface GeminiUsage {
  promptTokenCount?: number
  candidatesTokenCount?: number
  thoughtsTokenCount?: number
  cachedContentTokenCount?: number
  totalTokenCount?: number
}

export interface GeminiReply extends Delivery {
  text?: string
  /** a thought part (`thought: true`): the thought summary a model returns with includeThoughts */
  thought?: string
  toolCalls?: GeminiCall[]
  /** `false` leaves usageMetadata out; fields set over the estimates */
  usage?: false | GeminiUsage
  /** the answer is blocked: a candidate with finishReason SAFETY and no content */
  blocked?: boolean
  /** promptFeedback.blockReason; without `blocked` the prompt itself is blocked (no candidates) */
  blockReason?: string
  /** another finishReason (MAX_TOKENS, RECITATION, MALFORMED_FUNCTION_CALL, ...) */
  finishReason?: string
  /** the message of an error `status` */
  error?: string
  /** the error's `status` name; default from the HTTP status (400 INVALID_ARGUMENT, 429 RESOURCE_EXHAUSTED, ...) */
  errorStatus?: string
}

export interface GeminiOptions {
  /** the smallest cached prefix reported, in estimated tokens; default 1024 (Gemini 2.5 Flash's minimum) */
  minCacheTokens?: number
  /** the sentinel counts as a missing signature (kotodama must keep the real one); default true */
  refuseSentinel?: boolean
  /** models that sign and check function calls; default /^gemini-3/ */
  signatureModels?: RegExp
  /** parallel calls: only the first is signed (what Gemini 3 does, the default) or each one */
  parallelSignatures?: 'first' | 'each'
}

export interface IssuedSignature {
  signature: string
  model: string
  /** the call it was issued with; undefined for a reply without calls (signed on its last part) */
  call?: { name: string; args: unknown }
}

/** The wire plus the signatures it issued (it also remembers the prompts it answered, for the cache). */
export interface GeminiWire extends Wire<GeminiReply> {
  readonly issued: IssuedSignature[]
}

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED', 499: 'CANCELLED', 500: 'INTERNAL', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED',
}

export function geminiError(status: number, message: string, name?: string): Payload {
  return { status, json: { error: { code: status, message, status: name ?? STATUS[status] ?? 'UNKNOWN' } } }
}

/** The fake's token estimate, used for every count: a quarter of the characters, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4)
}

/** What implicit caching compares, in order: systemInstruction, tools, then each content, as JSON. */
export function promptBlocks(body: any): string[] {
  return [JSON.stringify(body?.systemInstruction ?? null), JSON.stringify(body?.tools ?? null), ...(body?.contents ?? []).map((c: any) => JSON.stringify(c))]
}

/** The prompt's token estimate: all of promptBlocks. */
export function promptTokens(body: any): number {
  return estimateTokens(promptBlocks(body).join(''))
}

export function modelOf(req: RecordedRequest): string {
  return /\/models\/([^/:]+):/.exec(req.path)?.[1] ?? ''
}

export function isStreamRequest(req: RecordedRequest): boolean {
  return req.path.endsWith(':streamGenerateContent')
}

export function contentsOf(req: RecordedRequest): any[] {
  return req.body?.contents ?? []
}

/** Every functionCall part sent, with its content's position (from 1) and signature. */
export function functionCallsOf(req: RecordedRequest): { name: string; args: unknown; id?: string; thoughtSignature?: string; position: number }[] {
  return contentsOf(req).flatMap((c, i) => (c.parts ?? []).filter((p: any) => p.functionCall).map((p: any) => ({
    name: p.functionCall.name, args: p.functionCall.args, id: p.functionCall.id, thoughtSignature: p.thoughtSignature, position: i + 1,
  })))
}

/** A call by name and arguments (keys sorted: a client may reorder them). */
function callKey(name: unknown, args: unknown): string {
  const sorted = (v: any): any => Array.isArray(v) ? v.map(sorted)
    : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v
  return `${name}\u0000${JSON.stringify(sorted(args ?? {}))}`
}

const onlyFunctionResponses = (c: any) => (c.parts ?? []).length > 0 && c.parts.every((p: any) => p.functionResponse)

export function gemini(o: GeminiOptions = {}): GeminiWire {
  const minCache = o.minCacheTokens ?? 1024
  const refuseSentinel = o.refuseSentinel ?? true
  const signatureModels = o.signatureModels ?? /^gemini-3/
  const issued: IssuedSignature[] = []
  // signature → the call it was issued with ('' for a reply without calls); call → its issuances (signature or none)
  const signatureCall = new Map<string, string>()
  const callIssues = new Map<string, (string | undefined)[]>()
  const seen = new Map<string, string[][]>()
  let signatureCounter = 0
  let responseCounter = 0

  const issue = (model: string, call?: GeminiCall): string => {
    const signature = Buffer.from(`fake-thought-signature:${model}:${++signatureCounter}`).toString('base64')
    issued.push({ signature, model, call: call && { name: call.name, args: call.args ?? {} } })
    signatureCall.set(signature, call ? callKey(call.name, call.args) : '')
    return signature
  }
  const noteCall = (call: GeminiCall, signature: string | undefined) => {
    const key = callKey(call.name, call.args)
    callIssues.set(key, [...(callIssues.get(key) ?? []), signature])
  }

  function checkSignatures(contents: any[]): string | undefined {
    let start = -1
    contents.forEach((c, i) => { if (c.role === 'user' && !onlyFunctionResponses(c)) start = i })
    for (let i = start + 1; i < contents.length; i++) {
      if (contents[i].role !== 'model') continue
      let first = true
      for (const part of contents[i].parts ?? []) {
        if (!part.functionCall) continue
        const key = callKey(part.functionCall.name, part.functionCall.args)
        const signature = part.thoughtSignature
        const issues = callIssues.get(key)
        if (typeof signature === 'string' && signature !== SKIP_SIGNATURE) {
          if (signatureCall.get(signature) !== key) return CORRUPTED_SIGNATURE
        } else if (signature !== SKIP_SIGNATURE || refuseSentinel) {
          const signedByFake = !!issues?.length && issues.every((s) => s !== undefined)
          if (first || signedByFake) return missingSignature(part.functionCall.name, i + 1)
        }
        first = false
      }
    }
    return undefined
  }

  // the longest prefix shared with an earlier answered request of the same model, if long enough
  function cachedTokens(model: string, blocks: string[]): number {
    let best = 0
    for (const earlier of seen.get(model) ?? []) {
      let chars = 0
      for (let i = 0; i < Math.min(earlier.length, blocks.length) && earlier[i] === blocks[i]; i++) chars += blocks[i].length
      best = Math.max(best, Math.ceil(chars / 4))
    }
    return best >= minCache ? best : 0
  }

  return {
    issued,
    error: (status, message, reply) => geminiError(status, message, reply?.errorStatus),
    reset() {
      issued.length = 0
      signatureCall.clear()
      callIssues.clear()
      seen.clear()
      signatureCounter = 0
      responseCounter = 0
    },
    check(req) {
      const contents = req.body?.contents
      if (!Array.isArray(contents) || !contents.length) return '* GenerateContentRequest.contents: contents is not specified\n'
      const badRole = contents.some((c: any) => c?.role !== undefined && c.role !== 'user' && c.role !== 'model')
      if (badRole) return 'Please use a valid role: user, model.'
      if (signatureModels.test(modelOf(req))) return checkSignatures(contents)
      return undefined
    },
    render(reply, req) {
      if (reply.status && reply.status >= 400) {
        return geminiError(reply.status, reply.error ?? `fake-gemini: scripted status ${reply.status}`, reply.errorStatus)
      }
      const model = modelOf(req)
      const blocks = promptBlocks(req.body)
      const cached = cachedTokens(model, blocks)
      seen.set(model, [...(seen.get(model) ?? []), blocks])
      const signing = signatureModels.test(model)
      const calls = reply.blocked || (reply.blockReason && !reply.blocked) ? [] : reply.toolCalls ?? []
      const callParts = calls.map((c, i) => {
        const signature = signing && (i === 0 || o.parallelSignatures === 'each') ? issue(model, c) : undefined
        noteCall(c, signature)
        return { functionCall: { ...(c.id ? { id: c.id } : {}), name: c.name, args: c.args ?? {} }, ...(signature ? { thoughtSignature: signature } : {}) }
      })
      // a reply without calls carries its signature on its last part ("Thought signatures")
      const textSignature = signing && !calls.length && reply.text ? issue(model) : undefined
      const prompt = estimateTokens(blocks.join(''))
      const blocked = !!reply.blocked || !!reply.blockReason
      const candidates = blocked ? 0 : estimateTokens((reply.text ?? '') + calls.map((c) => JSON.stringify(c.args ?? {})).join(''))
      const thoughts = blocked || !reply.thought ? 0 : estimateTokens(reply.thought)
      const usageMetadata = reply.usage === false ? undefined : {
        promptTokenCount: prompt,
        candidatesTokenCount: candidates,
        totalTokenCount: prompt + candidates + thoughts,
        ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
        ...(cached ? { cachedContentTokenCount: cached } : {}),
        ...reply.usage,
      }
      const head = { modelVersion: model, responseId: `fake-gemini-response-${++responseCounter}` }
      const promptFeedback = reply.blockReason ? { promptFeedback: { blockReason: reply.blockReason, safetyRatings: [] } } : {}
      const finishReason = reply.finishReason ?? (reply.blocked ? 'SAFETY' : 'STOP')
      const stream = isStreamRequest(req)
      const sse = /(^|&)alt=sse(&|$)/.test(req.query)

      if (blocked) {
        const safetyRatings = [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }]
        const candidates = reply.blocked ? { candidates: [{ finishReason, index: 0, safetyRatings }] } : {}
        const json = { ...candidates, ...promptFeedback, usageMetadata, ...head }
        return !stream ? { status: 200, json } : sse ? { status: 200, chunks: [sseEvent(json)] } : { status: 200, json: [json] }
      }
      const textPart = (text: string, signature?: string) => ({ text, ...(signature ? { thoughtSignature: signature } : {}) })
      if (!stream) {
        const parts = [
          ...(reply.thought ? [{ text: reply.thought, thought: true }] : []),
          ...(reply.text ? [textPart(reply.text, textSignature)] : []),
          ...callParts,
        ]
        return { status: 200, json: { candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }], ...promptFeedback, usageMetadata, ...head } }
      }
      // a stream: the thought and the text in pieces, the calls whole in one chunk, then finishReason and usage
      const chunk = (parts: unknown[]) => ({ candidates: [{ content: { role: 'model', parts }, index: 0 }], ...head })
      const chunks: unknown[] = []
      for (const piece of halves(reply.thought)) chunks.push(chunk([{ text: piece, thought: true }]))
      const texts = halves(reply.text)
      texts.forEach((piece, i) => chunks.push(chunk([textPart(piece, i === texts.length - 1 ? textSignature : undefined)])))
      if (callParts.length) chunks.push(chunk(callParts))
      chunks.push({ candidates: [{ finishReason, index: 0 }], ...promptFeedback, usageMetadata, ...head })
      return sse ? { status: 200, chunks: chunks.map((c) => sseEvent(c)) } : { status: 200, json: chunks }
    },
  }
}
