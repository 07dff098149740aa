// One model request = one step. Tools are offered without execute: the turn loop runs them
// itself, so the request timeout never covers typing pauses and every result passes the exit.
import { asSchema, generateText, stepCountIs, tool as sdkTool, type ModelMessage, type ToolSet } from 'ai'
import type { ModelHandle } from './provider'
import type { Tool } from '../tools/types'

export interface ModelCall {
  id: string
  name: string
  input: unknown
  /** Set when the input failed validation or the tool is unknown; the SDK's message for the model. */
  invalid?: string
}

export interface ModelStep {
  assistant?: ModelMessage
  text: string
  calls: ModelCall[]
}

// The SDK converts a schema to JSON Schema once per wrapper, so each tool keeps its wrapper.
const offered = new WeakMap<Tool, ToolSet[string]>()

export function offerTools(tools: Map<string, Tool>): ToolSet {
  const set: ToolSet = {}
  for (const [name, t] of tools) {
    let sdk = offered.get(t)
    if (!sdk) offered.set(t, sdk = sdkTool({ description: t.description, inputSchema: asSchema(t.inputSchema) }))
    set[name] = sdk
  }
  return set
}

export async function callModel(handle: ModelHandle, o: {
  system: string
  messages: ModelMessage[]
  tools: ToolSet
  signal?: AbortSignal
}): Promise<ModelStep> {
  const timeout = AbortSignal.timeout(handle.config.timeoutMs)
  const r = await generateText({
    model: handle.model,
    system: o.system,
    messages: o.messages,
    tools: o.tools,
    stopWhen: stepCountIs(1),
    maxRetries: handle.config.maxRetries,
    abortSignal: o.signal ? AbortSignal.any([o.signal, timeout]) : timeout,
    experimental_include: { requestBody: false, responseBody: false },
  })
  const assistant = withoutReasoning(r.response.messages.find(m => m.role === 'assistant'))
  const calls: ModelCall[] = r.toolCalls.map(c => ({
    id: c.toolCallId,
    name: c.toolName,
    input: c.input,
    invalid: (c as any).invalid ? invalidMessage(c.toolName, (c as any).error) : undefined,
  }))
  return { assistant, text: r.text, calls }
}

/**
 * Reasoning is not kept in history: it is long, and several OpenAI-compatible servers refuse
 * `reasoning_content` in input messages.
 */
function withoutReasoning(m: ModelMessage | undefined): ModelMessage | undefined {
  if (!m || m.role !== 'assistant' || typeof m.content === 'string') return m
  return { ...m, content: m.content.filter(p => p.type !== 'reasoning') }
}

/** A short, fixable message for a call the SDK could not accept (SPEC §10: the model gets the validation message). */
function invalidMessage(tool: string, error: any): string {
  const issues: any[] | undefined = error?.cause?.cause?.issues ?? error?.cause?.issues
  if (Array.isArray(issues) && issues.length) {
    const list = issues.map(i => `${i.path?.length ? i.path.join('.') : '(input)'}: ${i.message}`).join('; ')
    return `Invalid input for tool ${tool}: ${list}`
  }
  if (error?.cause?.name === 'AI_JSONParseError') return `Invalid input for tool ${tool}: the arguments are not valid JSON (${error.cause.cause?.message ?? error.cause.message})`
  return String(error?.message ?? 'invalid tool call')
}
