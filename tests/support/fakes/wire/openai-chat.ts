// The OpenAI chat-completions wire for the scripted server. Follows the OpenAI API reference:
// "Chat Completions" (create, the chat completion object, the chunk object), "Streaming"
// (server-sent `data:` chunks ending in `data: [DONE]`, usage in a last chunk with empty choices
// when `stream_options.include_usage`), and "Error codes" (the `{ error: { message, type } }` shape).
// DeepSeek's usage fields (prompt_cache_hit_tokens) come from its API reference, "usage"; a tool
// call's `extra_content` from Gemini's "OpenAI compatibility" page (thought signatures).
import { Delivery, Payload, RecordedRequest, sseEvent, Wire } from '../scripted-server'

export interface FakeToolCall {
  name: string
  // an object is JSON-stringified on the wire; a string is sent as-is (lets tests send malformed JSON)
  arguments: unknown
  id?: string
  /** sent on the tool call as-is (Gemini's OpenAI-compatible endpoint: `{ google: { thought_signature } }`) */
  extra_content?: unknown
}

export interface ChatUsage {
  prompt_tokens?: number
  completion_tokens?: number
  reasoning_tokens?: number
  cached_tokens?: number
  prompt_cache_hit_tokens?: number
  /** more usage fields, sent as they are (older Moonshot models' top-level `cached_tokens`) */
  extra?: Record<string, unknown>
}

export interface ChatReply extends Delivery {
  content?: string
  /** sent as `reasoning_content` (DeepSeek, and most OpenAI-compatible servers with reasoning) */
  reasoning?: string
  toolCalls?: FakeToolCall[]
  /** the error message of an error `status` */
  error?: string
  /** the error's `type`; default `invalid_request_error` */
  errorType?: string
  /**
   * The usage object: `false` leaves it out; an object sets fields (e.g. reasoning or cached
   * tokens) over the estimated counts. Default: estimated prompt and completion tokens.
   */
  usage?: false | ChatUsage
}

/** OpenAI's error envelope; the AI SDK surfaces error.message in APICallError. */
export function openAIError(status: number, message: string, type = 'invalid_request_error'): Payload {
  return { status, json: { error: { message, type, param: null, code: null } } }
}

/** A new chat-completions wire; its call and completion ids count from 1. */
export function openAIChat(name = 'fake-openai'): Wire<ChatReply> {
  let toolCallCounter = 0
  let completionCounter = 0
  return {
    error: (status, message, reply) => openAIError(status, message, reply?.errorType),
    reset: () => { toolCallCounter = 0 },
    render(reply, req) {
      if (reply.status && reply.status >= 400) return openAIError(reply.status, reply.error ?? `${name}: scripted status ${reply.status}`, reply.errorType)
      const body = req.body ?? {}
      const toolCalls = (reply.toolCalls ?? []).map((tc) => ({
        id: tc.id ?? `call_${++toolCallCounter}`,
        name: tc.name,
        arguments: typeof tc.arguments === 'string' ? tc.arguments : JSON.stringify(tc.arguments ?? {}),
        extra_content: tc.extra_content,
      }))
      const head = {
        id: `chatcmpl-fake-${++completionCounter}`,
        created: Math.floor(Date.now() / 1000),
        model: typeof body.model === 'string' ? body.model : 'fake-model',
      }
      const finishReason = toolCalls.length ? 'tool_calls' : 'stop'
      const usage = chatUsage(body, reply, toolCalls)
      if (body.stream === true) {
        return { status: 200, chunks: streamChunks(head, reply, toolCalls, finishReason, body.stream_options?.include_usage ? usage : undefined) }
      }
      const message: any = { role: 'assistant', content: reply.content ?? (toolCalls.length ? null : '') }
      if (reply.reasoning) message.reasoning_content = reply.reasoning
      if (toolCalls.length) {
        message.tool_calls = toolCalls.map((tc) => ({ id: tc.id, type: 'function', function: { name: tc.name, arguments: tc.arguments }, ...extraOf(tc) }))
      }
      return { status: 200, json: { ...head, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finishReason }], usage } }
    },
  }
}

type Head = { id: string; created: number; model: string }
type Call = { id: string; name: string; arguments: string; extra_content?: unknown }

function extraOf(tc: Call): { extra_content?: unknown } {
  return tc.extra_content === undefined ? {} : { extra_content: tc.extra_content }
}

function streamChunks(head: Head, reply: ChatReply, toolCalls: Call[], finishReason: string, usage: unknown): string[] {
  const chunk = (delta: any, finish: string | null = null) => ({
    ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }],
  })
  const events: string[] = []
  const send = (data: unknown) => events.push(sseEvent(data))
  send(chunk({ role: 'assistant', content: '' }))
  // split text in two so tests exercise delta accumulation like a real server
  for (const piece of halves(reply.reasoning)) send(chunk({ reasoning_content: piece }))
  for (const piece of halves(reply.content)) send(chunk({ content: piece }))
  toolCalls.forEach((tc, index) => {
    // real servers send id + name first, then the arguments in fragments
    send(chunk({ tool_calls: [{ index, id: tc.id, type: 'function', function: { name: tc.name, arguments: '' }, ...extraOf(tc) }] }))
    for (const piece of halves(tc.arguments)) send(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }))
  })
  send(chunk({}, finishReason))
  if (usage) send({ ...head, object: 'chat.completion.chunk', choices: [], usage })
  events.push(sseEvent('[DONE]'))
  return events
}

/** A text in two pieces (a stream's deltas); '' or undefined gives none. */
export function halves(text: string | undefined): string[] {
  if (!text) return []
  if (text.length < 2) return [text]
  const mid = Math.ceil(text.length / 2)
  return [text.slice(0, mid), text.slice(mid)]
}

// rough but deterministic token counts; tests only need them present and stable
function chatUsage(body: any, reply: ChatReply, toolCalls: { arguments: string }[]): any {
  if (reply.usage === false) return undefined
  const o = reply.usage ?? {}
  const prompt_tokens = o.prompt_tokens ?? Math.ceil(JSON.stringify(body.messages ?? []).length / 4)
  const out = (reply.content ?? '') + (reply.reasoning ?? '') + toolCalls.map((t) => t.arguments).join('')
  const completion_tokens = o.completion_tokens ?? Math.ceil(out.length / 4)
  const usage: any = { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens }
  if (o.cached_tokens !== undefined) usage.prompt_tokens_details = { cached_tokens: o.cached_tokens }
  if (o.prompt_cache_hit_tokens !== undefined) {
    Object.assign(usage, { prompt_cache_hit_tokens: o.prompt_cache_hit_tokens, prompt_cache_miss_tokens: prompt_tokens - o.prompt_cache_hit_tokens })
  }
  if (o.reasoning_tokens !== undefined) usage.completion_tokens_details = { reasoning_tokens: o.reasoning_tokens }
  return { ...usage, ...o.extra }
}

/** The model list of `GET /v1/models`. */
export function openAIModels(ids = ['fake-model'], owner = 'fake-openai'): Payload {
  return { status: 200, json: { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: owner })) } }
}

// ---- helpers for assertions on request bodies ----

export function messagesOf(req: RecordedRequest): any[] {
  return req.body?.messages ?? []
}

export function toolNamesOf(req: RecordedRequest): string[] {
  return (req.body?.tools ?? []).map((t: any) => t?.function?.name ?? t?.name)
}

function textOf(m: any): string {
  if (typeof m?.content === 'string') return m.content
  if (!Array.isArray(m?.content)) return ''
  return m.content.filter((p: any) => p?.type === 'text').map((p: any) => p.text).join('')
}

export function lastUserText(req: RecordedRequest): string {
  const users = messagesOf(req).filter((m) => m.role === 'user')
  return textOf(users[users.length - 1])
}

/** The text of every user message of the request, in order. */
export function userTexts(req: RecordedRequest): string {
  return messagesOf(req).filter((m) => m.role === 'user').map(textOf).join('\n')
}

export function imagePartsOf(req: RecordedRequest): string[] {
  const urls: string[] = []
  for (const m of messagesOf(req)) {
    if (!Array.isArray(m.content)) continue
    for (const p of m.content) {
      if (p?.type === 'image_url') urls.push(typeof p.image_url === 'string' ? p.image_url : p.image_url?.url)
    }
  }
  return urls
}

export function toolResultsOf(req: RecordedRequest): { tool_call_id: string; content: string }[] {
  return messagesOf(req)
    .filter((m) => m.role === 'tool')
    .map((m) => ({
      tool_call_id: m.tool_call_id,
      content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
    }))
}

/** The last `n` tool results of `req` as the model read them: JSON parsed, other text (an input the schema refused) as it is. */
export function lastToolValues(req: RecordedRequest, n: number): any[] {
  return toolResultsOf(req).slice(-n).map(r => {
    try {
      return JSON.parse(r.content)
    } catch {
      return r.content
    }
  })
}
