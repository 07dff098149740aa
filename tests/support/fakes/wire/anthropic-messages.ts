// Anthropic's Messages API wire for the scripted server. Follows Anthropic's API reference
// "Messages" (POST /v1/messages: the request, the message object with content blocks text /
// thinking / tool_use, stop_reason, usage with cache_creation_input_tokens and
// cache_read_input_tokens), "Streaming Messages" (named SSE events message_start, ping,
// content_block_start / _delta (text_delta, input_json_delta, thinking_delta, signature_delta) /
// _stop, message_delta with stop_reason and usage, message_stop; an `error` event after a 200),
// "Errors" ({ type: 'error', error: { type, message } }; 400 invalid_request_error, 401
// authentication_error, 429 rate_limit_error, 500 api_error, 529 overloaded_error), "Prompt
// caching" (anthropic-cache.ts) and "Extended thinking" (signed thinking blocks; anthropic-rules.ts).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { Delivery, Payload, RecordedRequest, sseEvent, Wire } from '../scripted-server'
import { halves } from './openai-chat'
import { CacheUsage, contentBlocks, estimateTokens, PromptCache, PromptCacheOptions } from './anthropic-cache'
import { checkMessagesRequest, RuleOptions } from './anthropic-rules'

export interface AnthropicToolCall {
  name: string
  /** an object; a string is sent as-is as the streamed partial_json (lets tests send malformed JSON) */
  input?: unknown
  id?: string
}

export interface AnthropicUsage {
  input_tokens?: number
  output_tokens?: number
  cache_creation_input_tokens?: number
  cache_read_input_tokens?: number
}

export interface AnthropicReply extends Delivery {
  text?: string
  /** a thinking block first, signed by the fake (its signature is checked when it comes back) */
  thinking?: string
  /** send the thinking as a `redacted_thinking` block (opaque, signed data) instead */
  redacted?: boolean
  toolCalls?: AnthropicToolCall[]
  /** default: tool_use when there are tool calls, else end_turn */
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'pause_turn' | string
  /** fields set over the computed usage (the cache's accounting and the estimated output) */
  usage?: AnthropicUsage
  /** the error message of an error `status` (or of `streamError`) */
  error?: string
  /** the error's type; default by status (400 invalid_request_error … 529 overloaded_error) */
  errorType?: string
  /** a content block of an unknown type (this name, or `fake_unknown_block`) after the others */
  unknownBlock?: boolean | string
  /**
   * Streamed requests only: a 200 whose stream carries an `error` event (default overloaded_error):
   * 'start' before anything else, 'mid' after message_start and the first text delta.
   */
  streamError?: 'start' | 'mid'
}

/** Anthropic's error type for an HTTP status ("Errors"). */
export function errorTypeFor(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error', 401: 'authentication_error', 402: 'billing_error', 403: 'permission_error', 404: 'not_found_error',
    413: 'request_too_large', 429: 'rate_limit_error', 500: 'api_error', 504: 'timeout_error', 529: 'overloaded_error',
  }
  return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error')
}

const DEFAULT_MESSAGES: Record<string, string> = {
  overloaded_error: 'Overloaded', rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit',
  api_error: 'Internal server error', authentication_error: 'invalid x-api-key',
}

let requestCounter = 0
function errorBody(type: string, message: string) {
  return { type: 'error', error: { type, message }, request_id: `req_fake_${++requestCounter}` }
}

/** Anthropic's error envelope; the AI SDK surfaces error.message in APICallError. */
export function anthropicError(status: number, message?: string, type = errorTypeFor(status)): Payload {
  return { status, json: errorBody(type, message ?? DEFAULT_MESSAGES[type] ?? `fake-anthropic: status ${status}`) }
}

export interface AnthropicWireOptions extends PromptCacheOptions {
  name?: string
  thinkingRule?: RuleOptions['thinkingRule']
}

export interface AnthropicWire extends Wire<AnthropicReply> {
  /** the server's prompt cache (its clock: `cache.advance(ms)`) */
  readonly cache: PromptCache
  /** the signature the fake issues (and accepts) for a thinking text */
  sign(thinking: string): string
  /** a redacted_thinking `data` the fake accepts */
  redact(thinking: string): string
}

/** A new Messages wire with its own prompt cache and signing key; ids count from 1. */
export function anthropicMessages(o: AnthropicWireOptions = {}): AnthropicWire {
  const name = o.name ?? 'fake-anthropic'
  // a key per server: a signature only this fake issued passes, as with Anthropic's
  const key = randomBytes(32)
  const cache = new PromptCache(o)
  let messageCounter = 0
  let toolCounter = 0
  const sign = (text: string) => createHmac('sha256', key).update(`thinking:${text}`).digest('base64')
  const mac = (payload: string) => createHmac('sha256', key).update(`redacted:${payload}`).digest('base64')
  const redact = (text: string) => {
    const payload = Buffer.from(text).toString('base64')
    return `${payload}.${mac(payload)}`
  }
  const same = (a: unknown, b: string) => typeof a === 'string' && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))
  const rules: RuleOptions = {
    verifySignature: (thinking, signature) => same(signature, sign(thinking)),
    verifyRedacted: (data) => typeof data === 'string' && same(data.slice(data.indexOf('.') + 1), mac(data.slice(0, data.indexOf('.')))),
    thinkingRule: o.thinkingRule,
  }
  return {
    cache,
    sign,
    redact,
    error: (status, message, reply) => anthropicError(status, message, reply?.errorType),
    reset: () => {
      messageCounter = 0
      toolCounter = 0
      cache.reset()
    },
    check(req) {
      if (!req.headers['anthropic-version']) return 'anthropic-version: header is required'
      return checkMessagesRequest(req.body, rules)
    },
    render(reply, req) {
      if (reply.status && reply.status >= 400) return anthropicError(reply.status, reply.error, reply.errorType)
      const body = req.body ?? {}
      const model = typeof body.model === 'string' ? body.model : 'claude-fake'
      const blocks = contentOf(reply, sign, redact, () => `toolu_fake_${++toolCounter}`)
      const head = { id: `msg_fake_${++messageCounter}`, type: 'message', role: 'assistant', model }
      const stopReason = reply.stopReason ?? (reply.toolCalls?.length ? 'tool_use' : 'end_turn')
      if (body.stream === true && reply.streamError) {
        return { status: 200, chunks: errorStream(reply, head, cache.peek(body), name) }
      }
      const usage = { ...cache.account(body), output_tokens: outputTokens(blocks), service_tier: 'standard', ...reply.usage }
      if (body.stream === true) return { status: 200, chunks: streamEvents(head, blocks, stopReason, usage) }
      return { status: 200, json: { ...head, content: blocks, stop_reason: stopReason, stop_sequence: null, usage } }
    },
  }
}

type Block = Record<string, any> & { type: string }

function contentOf(reply: AnthropicReply, sign: (t: string) => string, redact: (t: string) => string, nextId: () => string): Block[] {
  const blocks: Block[] = []
  if (reply.thinking !== undefined) {
    const t = reply.thinking
    blocks.push(reply.redacted ? { type: 'redacted_thinking', data: redact(t) } : { type: 'thinking', thinking: t, signature: sign(t) })
  }
  if (reply.text) blocks.push({ type: 'text', text: reply.text })
  for (const tc of reply.toolCalls ?? []) blocks.push({ type: 'tool_use', id: tc.id ?? nextId(), name: tc.name, input: tc.input ?? {} })
  if (reply.unknownBlock) blocks.push({ type: typeof reply.unknownBlock === 'string' ? reply.unknownBlock : 'fake_unknown_block', data: 'x' })
  return blocks
}

function outputTokens(blocks: Block[]): number {
  const text = (b: Block) => b.text ?? b.thinking ?? b.data ?? (b.type === 'tool_use' ? jsonOf(b.input) : '')
  return estimateTokens(blocks.map(text).join(''))
}

function jsonOf(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input ?? {})
}

type Head = { id: string; type: string; role: string; model: string }

function startEvent(head: Head, usage: Partial<CacheUsage>) {
  const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, cache_creation } = usage
  const start = { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, cache_creation, output_tokens: 1, service_tier: 'standard' }
  return sseEvent({ type: 'message_start', message: { ...head, content: [], stop_reason: null, stop_sequence: null, usage: start } }, 'message_start')
}

function event(data: { type: string } & Record<string, unknown>): string {
  return sseEvent(data, data.type)
}

/** One content block as start, deltas (each text in two pieces, like a real stream) and stop. */
function blockEvents(b: Block, index: number): string[] {
  const out: string[] = []
  const delta = (d: unknown) => out.push(event({ type: 'content_block_delta', index, delta: d }))
  switch (b.type) {
    case 'thinking':
      out.push(event({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '' } }))
      for (const piece of halves(b.thinking)) delta({ type: 'thinking_delta', thinking: piece })
      delta({ type: 'signature_delta', signature: b.signature })
      break
    case 'text':
      out.push(event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }))
      for (const piece of halves(b.text)) delta({ type: 'text_delta', text: piece })
      break
    case 'tool_use':
      out.push(event({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } }))
      delta({ type: 'input_json_delta', partial_json: '' })
      for (const piece of halves(jsonOf(b.input))) delta({ type: 'input_json_delta', partial_json: piece })
      break
    default:
      // redacted_thinking and unknown blocks arrive whole in their start event
      out.push(event({ type: 'content_block_start', index, content_block: b }))
  }
  out.push(event({ type: 'content_block_stop', index }))
  return out
}

function streamEvents(head: Head, blocks: Block[], stopReason: string, usage: CacheUsage & { output_tokens: number }): string[] {
  return [
    startEvent(head, usage),
    event({ type: 'ping' }),
    ...blocks.flatMap(blockEvents),
    // message_delta's usage is cumulative; Anthropic's own examples carry only output_tokens
    event({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }),
    event({ type: 'message_stop' }),
  ]
}

function errorStream(reply: AnthropicReply, head: Head, usage: CacheUsage, name: string): string[] {
  const type = reply.errorType ?? 'overloaded_error'
  const error = sseEvent(errorBody(type, reply.error ?? DEFAULT_MESSAGES[type] ?? `${name}: stream error`), 'error')
  if (reply.streamError === 'start') return [error]
  const text = halves(reply.text ?? 'partial')[0]
  return [
    startEvent(head, usage),
    event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
    error,
  ]
}

// ---- helpers for assertions on request bodies ----

export function messagesOf(req: RecordedRequest): any[] {
  return Array.isArray(req.body?.messages) ? req.body.messages : []
}

/** The system prompt's text (string or blocks joined). */
export function systemTextOf(req: RecordedRequest): string {
  const s = req.body?.system
  return typeof s === 'string' ? s : Array.isArray(s) ? s.map((b: any) => b?.text ?? '').join('\n') : ''
}

export function toolNamesOf(req: RecordedRequest): string[] {
  return (req.body?.tools ?? []).map((t: any) => t?.name)
}

/** Every tool_result block of the request, in order, with its content as text. */
export function toolResultsOf(req: RecordedRequest): { tool_use_id: string; content: string; is_error?: boolean }[] {
  return messagesOf(req).flatMap((m) => contentBlocks(m).filter((b) => b?.type === 'tool_result')).map((b) => ({
    tool_use_id: b.tool_use_id,
    content: typeof b.content === 'string' ? b.content : JSON.stringify(b.content),
    ...(b.is_error ? { is_error: true } : {}),
  }))
}

/** The text of the last user message. */
export function lastUserText(req: RecordedRequest): string {
  const users = messagesOf(req).filter((m) => m.role === 'user')
  return contentBlocks(users.at(-1)).filter((b) => b?.type === 'text').map((b) => b.text).join('')
}
