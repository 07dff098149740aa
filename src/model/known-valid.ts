// Messages whose verdict under the SDK's ModelMessage schemas is known without running zod: text
// alone, and the shapes the turn loop makes of a step (text, reasoning and tool calls; tool results
// of text or JSON). Only what the schemas surely accept answers true; anything else (provider
// options, files, images, odd values) goes to the schemas as before, so the verdict never changes.
import type { ModelMessage } from 'ai'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A value jsonValueSchema accepts (null, strings, finite numbers, booleans, plain objects and arrays of them). */
function jsonValue(v: unknown, depth = 0): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true
  if (typeof v === 'number') return Number.isFinite(v)
  if (depth > 64 || typeof v !== 'object') return false
  if (Array.isArray(v)) {
    for (const x of v) if (!jsonValue(x, depth + 1)) return false
    return true
  }
  const proto = Object.getPrototypeOf(v)
  if ((proto !== Object.prototype && proto !== null) || Object.getOwnPropertySymbols(v).length) return false
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k]
    if (x !== undefined && !jsonValue(x, depth + 1)) return false
  }
  return true
}

function assistantPart(p: unknown): boolean {
  if (!isRecord(p) || p.providerOptions !== undefined) return false
  if (p.type === 'text' || p.type === 'reasoning') return typeof p.text === 'string'
  if (p.type === 'tool-call') {
    return typeof p.toolCallId === 'string' && typeof p.toolName === 'string' && p.input !== undefined
      && (p.providerExecuted === undefined || typeof p.providerExecuted === 'boolean')
  }
  return false
}

function toolPart(p: unknown): boolean {
  if (!isRecord(p) || p.type !== 'tool-result' || p.providerOptions !== undefined) return false
  if (typeof p.toolCallId !== 'string' || typeof p.toolName !== 'string') return false
  const o = p.output
  if (!isRecord(o) || o.providerOptions !== undefined) return false
  if (o.type === 'text' || o.type === 'error-text') return typeof o.value === 'string'
  if (o.type === 'json' || o.type === 'error-json') return 'value' in o && jsonValue(o.value)
  return false
}

export function knownValid(m: ModelMessage): boolean {
  if (!isRecord(m) || m.providerOptions !== undefined) return false
  const c = m.content as unknown
  if (typeof c === 'string') return m.role === 'user' || m.role === 'system' || m.role === 'assistant'
  if (!Array.isArray(c)) return false
  if (m.role === 'assistant') return c.every(assistantPart)
  if (m.role === 'tool') return c.every(toolPart)
  return false
}
