// Tool-call dialects (SPEC §11): for endpoints without native function calling the model is
// wrapped in @ai-sdk-tool/parser's middleware, which describes the tools in the system prompt,
// sends no native `tools`, writes earlier calls and results back as text of the same dialect and
// parses calls out of the model's text. Two small layers of our own sit around it:
// - inside (next to the server): <think> blocks are taken out of the text before the parser sees
//   it, so a call the model only thought about is never run;
// - outside: a call the parser could not read becomes an invalid call with a fixable message
//   (like an invalid native call, SPEC §10) instead of stray text (see docs/decisions.md).
import { wrapLanguageModel, type LanguageModel } from 'ai'
import type { LanguageModelV3, LanguageModelV3Content, LanguageModelV3FunctionTool, LanguageModelV3Middleware } from '@ai-sdk/provider'
import { generateId } from '@ai-sdk/provider-utils'
import { hermesToolMiddleware, morphXmlToolMiddleware } from '@ai-sdk-tool/parser'
import { splitReasoning } from './reasoning'

import type { ToolCallDialect } from '../config/types'

/** The provider metadata key that carries a parse failure to `toStep` (call-model.ts). */
export const INVALID_KEY = 'kotodama'

const QUOTE = 200

/** The model as it is called for this dialect; `native` is returned untouched. */
export function withDialect(model: LanguageModel, dialect: ToolCallDialect | undefined): LanguageModel {
  if (!dialect || dialect === 'native') return model
  const parser = dialect === 'hermes' ? hermesToolMiddleware : morphXmlToolMiddleware
  return wrapLanguageModel({
    model: model as LanguageModelV3,
    // the first middleware is the outermost
    middleware: [malformedCalls(dialect), parser, reasoningFirst],
  })
}

/** Reasoning leaves the text before the parser runs: a <tool_call> inside <think> is a thought, not a call. */
const reasoningFirst: LanguageModelV3Middleware = {
  specificationVersion: 'v3',
  async wrapGenerate({ doGenerate }) {
    const result = await doGenerate()
    const texts = result.content.filter(p => p.type === 'text')
    if (!texts.length) return result
    const { text, reasoning } = splitReasoning(texts.map(p => (p as { text: string }).text).join(''))
    if (!reasoning) return result
    const content: LanguageModelV3Content[] = []
    let placed = false
    for (const part of result.content) {
      if (part.type !== 'text') content.push(part)
      else if (!placed) {
        placed = true
        content.push({ type: 'reasoning', text: reasoning })
        if (text) content.push({ ...part, text })
      }
    }
    return { ...result, content }
  },
}

/**
 * Text the parser left behind that still looks like a call (a `<tool_call>` block, or an element
 * named after an offered tool) is a malformed call: it becomes an invalid tool call whose message
 * quotes it, and it leaves the step's text so it is never sent to a chat.
 */
function malformedCalls(dialect: 'hermes' | 'xml'): LanguageModelV3Middleware {
  return {
    specificationVersion: 'v3',
    async wrapGenerate({ doGenerate, params }) {
      const reasons: string[] = []
      const po = params.providerOptions as Record<string, any> | undefined
      const inner = po?.toolCallMiddleware?.onError
      // the parser reports what it could not read through this option (and only there)
      params.providerOptions = {
        ...po,
        toolCallMiddleware: {
          ...po?.toolCallMiddleware,
          onError: (message: string, meta?: Record<string, unknown>) => {
            reasons.push(describe(message, meta))
            inner?.(message, meta)
          },
        },
      } as any
      const result = await doGenerate()
      const names = toolNames(params.tools)
      const content: LanguageModelV3Content[] = []
      for (const part of result.content) {
        if (part.type !== 'text') {
          content.push(part)
          continue
        }
        const found = findBroken(part.text, dialect, names)
        if (!found) {
          content.push(part)
          continue
        }
        const before = part.text.slice(0, found.index)
        if (before.trim()) content.push({ ...part, text: before })
        content.push(invalidCall(found.name, found.raw, dialect, reasons.shift()))
      }
      return { ...result, content }
    },
  }
}

function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return []
  return tools.filter((t): t is LanguageModelV3FunctionTool => t?.type === 'function').map(t => t.name)
}

/** The first call-shaped fragment of the text (to its end: what follows a broken call is part of it). */
function findBroken(text: string, dialect: 'hermes' | 'xml', names: string[]): { index: number; name?: string; raw: string } | undefined {
  if (dialect === 'hermes') {
    const i = text.indexOf('<tool_call>')
    if (i < 0) return undefined
    const raw = text.slice(i)
    const name = /"name"\s*:\s*"([^"]+)"/.exec(raw)?.[1]
    return { index: i, name, raw }
  }
  let best: { index: number; name?: string; raw: string } | undefined
  for (const name of names) {
    const i = text.search(new RegExp(`<${name.replace(/[^\w-]/g, '')}[\\s>/]`))
    if (i >= 0 && (!best || i < best.index)) best = { index: i, name, raw: text.slice(i) }
  }
  return best
}

function describe(message: string, meta?: Record<string, unknown>): string {
  const why = typeof meta?.dropReason === 'string' ? `: ${meta.dropReason.replace(/-/g, ' ')}` : ''
  return `${message.replace(/,? keeping original text\.?$/i, '')}${why}`
}

/** A `<tool_call>` fragment that could not be read: an invalid call that quotes it. */
export function brokenCall(raw: string, dialect: 'hermes' | 'xml'): LanguageModelV3Content {
  return invalidCall(/"name"\s*:\s*"([^"]+)"/.exec(raw)?.[1], raw, dialect)
}

function invalidCall(name: string | undefined, raw: string, dialect: 'hermes' | 'xml', reason?: string): LanguageModelV3Content {
  const quoted = raw.length > QUOTE ? `${raw.slice(0, QUOTE)}…` : raw
  const format = dialect === 'hermes'
    ? 'one <tool_call>{"name": "...", "arguments": {...}}</tool_call> block per call, with valid JSON inside'
    : 'one element named after the tool per call, one closed child element per argument'
  const why = reason ? ` (${reason})` : ''
  const message = `Invalid tool call: this text could not be read as a tool call${why}, so nothing was run: ${quoted}\nWrite it again as ${format}.`
  return {
    type: 'tool-call', toolCallId: generateId(), toolName: name ?? 'tool_call', input: '{}',
    providerMetadata: { [INVALID_KEY]: { invalid: message } },
  }
}
