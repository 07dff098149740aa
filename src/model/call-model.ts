// One model request = one step. Tools are offered without execute: the turn loop runs them
// itself, so the request timeout never covers typing pauses and every result passes the exit.
//
// The step calls the model directly (the SDK's own prompt conversion, tool preparation and
// retries, then `doGenerate`) instead of `generateText`: generateText re-validates every history
// message with zod on every step, two thirds of a turn's cost. Here each message object is
// validated once (history messages never change), with the same schemas and the same error.
import { InvalidPromptError, tool as sdkTool, type ModelMessage, type ToolSet } from 'ai'
import { convertToLanguageModelPrompt, prepareRetries, prepareToolsAndToolChoice } from 'ai/internal'
import type { LanguageModelV3, LanguageModelV3Content, LanguageModelV3FunctionTool, LanguageModelV3Usage } from '@ai-sdk/provider'
import { secureJsonParse } from '@ai-sdk/provider-utils'
import type { ZodType } from 'zod'
import type { ModelHandle } from './provider'
import type { Tool } from '../contract/tool'
import { checkMessages } from './check-messages'
import { sdkSchema } from './sdk-schema'
import { splitReasoning } from './reasoning'
import { INVALID_KEY } from './dialects'
import { newCallId } from '../util/call-id'
import { hasLeftoverCalls, leftoverCalls } from './leftover-calls'

/** The provider's filter blocked the answer: it is not tried again elsewhere (failure.ts: invalid). */
export class ContentFiltered extends Error {
  override name = 'ContentFilteredError'
  constructor(raw?: string) {
    super(`the answer was blocked by the provider's safety filter${raw ? ` (finish reason ${raw})` : ''}`)
  }
}

export interface ModelCall {
  id: string
  name: string
  input: unknown
  /** Set when the input failed validation or the tool is unknown; a fixable message for the model. */
  invalid?: string
}

export interface ModelStep {
  assistant?: ModelMessage
  /** the step's text, reasoning left out */
  text: string
  calls: ModelCall[]
  usage?: LanguageModelV3Usage
}

// Each tool keeps its wrapper, and tools of one schema share its JSON Schema (sdk-schema.ts); the
// turn validates a call's input with the tool's own schema.
const offered = new WeakMap<Tool, ToolSet[string]>()
const schemaOf = new WeakMap<object, Tool['inputSchema']>()

export function offerTools(tools: Map<string, Tool>): ToolSet {
  const set: ToolSet = {}
  for (const [name, t] of tools) {
    let sdk = offered.get(t)
    if (!sdk) {
      offered.set(t, sdk = sdkTool({ description: t.description, inputSchema: sdkSchema(t.inputSchema) }))
      schemaOf.set(sdk as object, t.inputSchema)
    }
    set[name] = sdk
  }
  return set
}

export async function callModel(handle: ModelHandle, o: {
  system: string
  messages: ModelMessage[]
  tools: ToolSet
  /** a tool the request did not declare but a call may name: it is loaded, not unavailable (SPEC §18) */
  hidden?: (name: string) => Tool | undefined
  signal?: AbortSignal
}): Promise<ModelStep> {
  const timeout = AbortSignal.timeout(handle.config.timeoutMs)
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout
  if (!o.messages.length) throw new InvalidPromptError({ prompt: o.messages, message: 'messages must not be empty' })
  await checkMessages(o.messages)
  const model = handle.model as LanguageModelV3
  const prompt = await convertToLanguageModelPrompt({
    prompt: { system: o.system, messages: o.messages }, supportedUrls: await model.supportedUrls, download: undefined,
  } as any)
  const native = !handle.config.toolCalls || handle.config.toolCalls === 'native'
  // models[].toolChoice required: a step never ends in plain text (SPEC §27); tools in the text (hermes, xml) have no such switch
  const required = native && handle.config.toolChoice === 'required' && Object.keys(o.tools).length > 0
  const choice = required ? 'required' : undefined
  const { tools, toolChoice } = await prepareToolsAndToolChoice({ tools: o.tools, toolChoice: choice, activeTools: undefined } as any)
  const { retry } = prepareRetries({ maxRetries: handle.config.maxRetries, abortSignal: signal } as any)
  const generate = () => retry(() => model.doGenerate({ prompt, tools, toolChoice, abortSignal: signal }))
  let result
  try {
    result = await generate()
  } catch (e) {
    // models[].reasoning auto: the server asked for its reasoning back; the same step at once (SPEC §11)
    if (!handle.learn?.(e)) throw e
    result = await generate()
  }
  // Gemini's safety filter (finishReason SAFETY) answers nothing: a failure in words, not an empty step
  if (result.finishReason?.unified === 'content-filter' && !result.content.some(p => p.type === 'text' || p.type === 'tool-call')) {
    throw new ContentFiltered(result.finishReason.raw)
  }
  return toStep(result.content, o.tools, result.usage, native ? functionTools(tools) : undefined, o.hidden)
}

const functionTools = (tools: unknown): LanguageModelV3FunctionTool[] =>
  Array.isArray(tools) ? tools.filter((t): t is LanguageModelV3FunctionTool => t?.type === 'function') : []

/**
 * The step as the SDK's response message would hold it, with its reasoning kept as reasoning parts,
 * each with its provider metadata (SPEC §11: returned to servers that demand it, shown on the
 * console; <think> blocks of the text become one more part), and call ids of our own.
 * `native`: the offered tools, when calls left in the text are read (leftover-calls.ts).
 */
async function toStep(
  parts: LanguageModelV3Content[], offered: ToolSet, usage?: LanguageModelV3Usage,
  native?: LanguageModelV3FunctionTool[], hidden?: (name: string) => Tool | undefined,
): Promise<ModelStep> {
  const content: any[] = []
  const calls: ModelCall[] = []
  // <think> blocks in the content are reasoning: not the step's text (SPEC §11)
  const raw = parts.filter(p => p.type === 'text').map(p => (p as { text: string }).text).join('')
  const split = splitReasoning(raw)
  let text = split.text
  // each reasoning part whole, with its metadata: a provider's signature on it must go back
  // (Anthropic's thinking blocks, Gemini's thought signatures); a redacted block has data, no text
  for (const p of parts) {
    if (p.type === 'reasoning' && (p.text.trim() || p.providerMetadata)) {
      content.push({ type: 'reasoning', text: p.text, ...(p.providerMetadata ? { providerOptions: p.providerMetadata } : {}) })
    }
  }
  if (split.reasoning.trim()) content.push({ type: 'reasoning', text: split.reasoning })
  if (native && !parts.some(p => p.type === 'tool-call') && hasLeftoverCalls(text)) {
    const found = leftoverCalls(text, native)
    text = found.filter(p => p.type === 'text').map(p => (p as { text: string }).text).join('').trim()
    parts = [{ type: 'text', text }, ...found.filter(p => p.type === 'tool-call')]
  }
  let textShown = false
  for (const part of parts) {
    if (part.type === 'text') {
      if (!textShown && text.length) content.push({ type: 'text', text, providerOptions: part.providerMetadata })
      textShown = true
    } else if (part.type === 'tool-call' && !part.providerExecuted) {
      // a text dialect's call that could not be parsed arrives already judged (dialects.ts)
      const unread = part.providerMetadata?.[INVALID_KEY]?.invalid
      const { input, invalid } = typeof unread === 'string' ? { input: {}, invalid: unread } : await parseInput(part.toolName, part.input, offered, hidden)
      const id = newCallId()
      calls.push({ id, name: part.toolName, input, invalid })
      content.push({
        type: 'tool-call', toolCallId: id, toolName: part.toolName,
        input: invalid && (typeof input !== 'object' || input === null) ? {} : input,
        providerOptions: typeof unread === 'string' ? undefined : part.providerMetadata,
      })
    }
  }
  return { assistant: content.length ? { role: 'assistant', content } : undefined, text, calls, usage }
}

/** The call's input parsed and validated by the tool's own schema, or a short, fixable message (SPEC §10). */
async function parseInput(
  name: string, raw: string, tools: ToolSet, hidden?: (name: string) => Tool | undefined,
): Promise<{ input: unknown; invalid?: string }> {
  let value: unknown
  try {
    value = raw.trim() === '' ? {} : secureJsonParse(raw)
  } catch (e: any) {
    return { input: raw, invalid: `Invalid input for tool ${name}: the arguments are not valid JSON (${e?.message ?? e})` }
  }
  const tool = tools[name]
  const unlisted = tool ? undefined : hidden?.(name)
  if (!tool && !unlisted) return { input: value, invalid: `Model tried to call unavailable tool '${name}'. Available tools: ${Object.keys(tools).join(', ')}.` }
  const schema = unlisted ? unlisted.inputSchema : schemaOf.get(tool as object)
  if (!schema) return { input: value }
  let r: ReturnType<ZodType['safeParse']>
  try {
    r = schema.safeParse(value)
  } catch {
    r = await schema.safeParseAsync(value)   // a schema with async refinements
  }
  if (r.success) return { input: r.data }
  const list = r.error.issues.map(i => `${i.path?.length ? i.path.join('.') : '(input)'}: ${i.message}`).join('; ')
  return { input: value, invalid: `Invalid input for tool ${name}: ${list}` }
}
