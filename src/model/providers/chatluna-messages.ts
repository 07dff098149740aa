// The AI SDK prompt as LangChain message-likes, and LangChain's answer as AI SDK content (SPEC §11.1,
// ChatLuna). Plain objects, not @langchain/core classes: BaseChatModel.invoke and .stream coerce
// `{ role, content, tool_calls, tool_call_id, additional_kwargs }` into messages themselves
// (coerceMessageLikeToMessage of @langchain/core 0.3, which ChatLuna 1.3 bundles), so kotodama
// needs no copy of LangChain that could differ from ChatLuna's.
import type {
  LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3FilePart, LanguageModelV3FinishReason, LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput, LanguageModelV3Usage, SharedV3Warning,
} from '@ai-sdk/provider'
import { neutralPrompt } from './neutral'

export type LunaRole = 'system' | 'user' | 'assistant' | 'tool'

export type LunaContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }

export interface LunaToolCall {
  id: string
  name: string
  args: Record<string, unknown>
  type: 'tool_call'
}

/** A message as LangChain coerces it into a SystemMessage, HumanMessage, AIMessage or ToolMessage. */
export interface LunaMessage {
  role: LunaRole
  content: string | LunaContentPart[]
  tool_calls?: LunaToolCall[]
  tool_call_id?: string
  name?: string
  /** ChatLuna's OpenAI-style adapters send `reasoning_content` from here (processInterleavedThinkMessages) */
  additional_kwargs?: { reasoning_content?: string }
}

/**
 * A tool as ChatLuna's adapters read one (`formatToolToOpenAITool`: name, description, and `schema`,
 * taken as JSON Schema when it is not zod). A copy: the adapter deletes `additionalProperties` and
 * `$schema` from the schema it is given, in place.
 */
export interface LunaTool {
  name: string
  description: string
  schema: unknown
}

/** An AIMessage or AIMessageChunk, as far as the bridge reads it. */
export interface LunaAnswer {
  content?: unknown
  tool_calls?: { id?: string; name?: string; args?: unknown }[]
  invalid_tool_calls?: { id?: string; name?: string; args?: string }[]
  tool_call_chunks?: { id?: string; name?: string; args?: string; index?: number }[]
  usage_metadata?: LunaUsage
  additional_kwargs?: { reasoning_content?: unknown }
  response_metadata?: { finish_reason?: unknown }
}

/** LangChain's UsageMetadata: input_tokens includes the cached tokens (read and written). */
export interface LunaUsage {
  input_tokens?: number
  output_tokens?: number
  total_tokens?: number
  input_token_details?: { cache_read?: number; cache_creation?: number }
  output_token_details?: { reasoning?: number }
}

/**
 * When assistant messages carry their reasoning back (models[].reasoning): `drop` never, `return`
 * always (an empty string where the step had none, as DeepSeek's thinking mode demands), `auto`
 * where the step kept reasoning: what ChatLuna does with its own conversations.
 */
export type ReasoningBack = 'auto' | 'return' | 'drop'

export function toLunaMessages(prompt: LanguageModelV3Prompt, reasoning: ReasoningBack = 'auto'): LunaMessage[] {
  const out: LunaMessage[] = []
  // signed reasoning of a native provider never goes to another server (neutral.ts)
  for (const m of neutralPrompt(prompt, 'kotodama')) {
    if (m.role === 'system') out.push({ role: 'system', content: m.content })
    else if (m.role === 'user') out.push({ role: 'user', content: userContent(m.content) })
    else if (m.role === 'assistant') out.push(assistant(m.content, reasoning))
    else {
      for (const p of m.content) {
        if (p.type !== 'tool-result') continue
        out.push({ role: 'tool', content: resultText(p.output), tool_call_id: p.toolCallId, name: p.toolName })
      }
    }
  }
  return out
}

type UserPart = Extract<LanguageModelV3Prompt[number], { role: 'user' }>['content'][number]
type AssistantPart = Extract<LanguageModelV3Prompt[number], { role: 'assistant' }>['content'][number]

function userContent(parts: UserPart[]): string | LunaContentPart[] {
  const out: LunaContentPart[] = parts.map(p => p.type === 'text' ? { type: 'text', text: p.text } : filePart(p))
  // one text part as a plain string, as the openai-compatible provider sends it
  return out.length === 1 && out[0].type === 'text' ? out[0].text : out
}

function filePart(p: LanguageModelV3FilePart): LunaContentPart {
  if (!p.mediaType.startsWith('image/')) return { type: 'text', text: `[${p.mediaType} file not sent: the ChatLuna bridge sends images only]` }
  const d = p.data
  const url = d instanceof URL ? d.href
    : typeof d === 'string' ? (/^(data:|https?:)/.test(d) ? d : `data:${p.mediaType};base64,${d}`)
      : `data:${p.mediaType};base64,${Buffer.from(d).toString('base64')}`
  return { type: 'image_url', image_url: { url } }
}

function assistant(parts: AssistantPart[], reasoning: ReasoningBack): LunaMessage {
  let text = ''
  let thought: string | undefined
  const calls: LunaToolCall[] = []
  for (const p of parts) {
    if (p.type === 'text') text += p.text
    else if (p.type === 'reasoning') thought = (thought ?? '') + p.text
    else if (p.type === 'tool-call' && !p.providerExecuted) calls.push({ id: p.toolCallId, name: p.toolName, args: argsOf(p.input), type: 'tool_call' })
  }
  const m: LunaMessage = { role: 'assistant', content: text }
  if (calls.length) m.tool_calls = calls
  const back = reasoning === 'drop' ? undefined : reasoning === 'return' ? thought ?? '' : thought
  if (back !== undefined) m.additional_kwargs = { reasoning_content: back }
  return m
}

/** A call's input as LangChain's `args` object (an adapter sends JSON.stringify(args)). */
function argsOf(input: unknown): Record<string, unknown> {
  let v = input
  if (typeof v === 'string') {
    try { v = JSON.parse(v) } catch { v = {} }
  }
  return v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : {}
}

/** A tool result as a ToolMessage's text: ChatLuna's tool messages carry no media. */
function resultText(o: LanguageModelV3ToolResultOutput): string {
  switch (o.type) {
    case 'text':
    case 'error-text':
      return o.value
    case 'json':
    case 'error-json':
      return JSON.stringify(o.value)
    case 'execution-denied':
      return `Tool execution denied${o.reason ? `: ${o.reason}` : ''}`
    case 'content':
      return o.value.map(v => v.type === 'text' ? v.text
        : `[${'mediaType' in v && v.mediaType ? v.mediaType : v.type} not sent: ChatLuna tool results carry text only]`).join('\n')
  }
}

export function toLunaTools(tools: LanguageModelV3CallOptions['tools'], warnings: SharedV3Warning[]): LunaTool[] {
  const out: LunaTool[] = []
  for (const t of tools ?? []) {
    if (t.type === 'function') out.push({ name: t.name, description: t.description ?? '', schema: structuredClone(t.inputSchema) })
    else warnings.push({ type: 'unsupported', feature: `provider tool ${t.name}`, details: 'ChatLuna takes function tools only' })
  }
  return out
}

/** The text of LangChain content: a string, or the text blocks of an array. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map(b => b && typeof b === 'object' && (b as any).type === 'text' && typeof (b as any).text === 'string' ? (b as any).text : '').join('')
}

export function reasoningOf(a: LunaAnswer): string | undefined {
  const r = a.additional_kwargs?.reasoning_content
  return typeof r === 'string' ? r : undefined
}

/** AIMessage → the V3 content of a step: reasoning, text, then tool calls (an unparsable one as its raw text, for the model to fix). */
export function toContent(a: LunaAnswer, newId: () => string): LanguageModelV3Content[] {
  const content: LanguageModelV3Content[] = []
  const thought = reasoningOf(a)
  if (thought) content.push({ type: 'reasoning', text: thought })
  const text = textOf(a.content)
  if (text) content.push({ type: 'text', text })
  for (const c of a.tool_calls ?? []) {
    if (!c.name) continue
    content.push({ type: 'tool-call', toolCallId: c.id || newId(), toolName: c.name, input: JSON.stringify(c.args ?? {}) })
  }
  for (const c of a.invalid_tool_calls ?? []) {
    if (!c.name) continue
    content.push({ type: 'tool-call', toolCallId: c.id || newId(), toolName: c.name, input: c.args ?? '' })
  }
  return content
}

export function toUsage(u: LunaUsage | undefined): LanguageModelV3Usage {
  const input = num(u?.input_tokens)
  const read = num(u?.input_token_details?.cache_read)
  const write = num(u?.input_token_details?.cache_creation)
  const output = num(u?.output_tokens)
  const reasoning = num(u?.output_token_details?.reasoning)
  const noCache = input === undefined ? undefined : Math.max(0, input - (read ?? 0) - (write ?? 0))
  return {
    inputTokens: { total: input, noCache, cacheRead: read, cacheWrite: write },
    outputTokens: { total: output, text: output === undefined ? undefined : output - (reasoning ?? 0), reasoning },
    ...(u ? { raw: JSON.parse(JSON.stringify(u)) } : {}),
  }
}

const num = (v: unknown): number | undefined => typeof v === 'number' && Number.isFinite(v) ? v : undefined

export function finishOf(a: LunaAnswer, calls: boolean): LanguageModelV3FinishReason {
  const raw = typeof a.response_metadata?.finish_reason === 'string' ? a.response_metadata.finish_reason : undefined
  if (calls) return { unified: 'tool-calls', raw }
  const unified = raw === 'length' ? 'length' : raw === 'content_filter' ? 'content-filter' : 'stop'
  return { unified, raw }
}
