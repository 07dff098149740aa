// What Anthropic's Messages API refuses before answering, imitated for the fake. Follows the API
// reference "Messages" (the request's fields and content blocks), "Prompt caching" (at most 4
// breakpoints, `ephemeral` with ttl 5m or 1h, none on thinking blocks), "Extended thinking" (budget
// ≥ 1024 and under max_tokens, no forced tool use, thinking blocks come back first and with their
// signatures, the last tool-use turn must start with one) and "Tool use" (each tool_use answered by a
// tool_result in the next message). Wording is Anthropic's where known (from its error bodies).
import { breakpointPaths, contentBlocks, systemBlocks } from './anthropic-cache'

/** Content block types the fake understands in a request; anything else is refused like an unknown tag. */
export const REQUEST_BLOCK_TYPES = ['text', 'image', 'document', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking']
const ASSISTANT_ONLY = new Set(['tool_use', 'thinking', 'redacted_thinking'])
const USER_ONLY = new Set(['tool_result', 'image', 'document'])
const THINKING = new Set(['thinking', 'redacted_thinking'])
export const MAX_BREAKPOINTS = 4
const THINKING_DOCS = 'Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking'

export interface RuleOptions {
  /** true when `signature` is the one the fake issued for `thinking` */
  verifySignature(thinking: string, signature: string): boolean
  /** true when `data` is a redacted_thinking payload the fake issued */
  verifyRedacted(data: string): boolean
  /**
   * Which assistant messages must start with a thinking block when thinking is on. 'turn' (default,
   * as documented): the first assistant message of the current tool-use turn, when the request ends
   * in tool results. 'every': every assistant message that holds tool_use blocks.
   */
  thinkingRule?: 'turn' | 'every'
}

/** The first thing the real API would refuse in this request, or undefined. */
export function checkMessagesRequest(body: any, o: RuleOptions): string | undefined {
  return checkFields(body) ?? checkBlocks(body) ?? checkCacheControl(body) ?? checkThinkingConfig(body) ?? checkToolPairs(body) ?? checkThinkingBlocks(body, o)
}

export function thinkingOn(body: any): boolean {
  return body?.thinking?.type === 'enabled' || body?.thinking?.type === 'adaptive'
}

function checkFields(body: any): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'body: Input should be an object'
  if (typeof body.model !== 'string' || !body.model) return 'model: Field required'
  if (!Number.isInteger(body.max_tokens)) return 'max_tokens: Field required'
  if (body.max_tokens < 1) return 'max_tokens: Input should be greater than or equal to 1'
  if (!Array.isArray(body.messages)) return 'messages: Field required'
  if (!body.messages.length) return 'messages: at least one message is required'
  for (const [i, m] of body.messages.entries()) {
    if (m?.role !== 'user' && m?.role !== 'assistant') return `messages.${i}.role: Input should be 'user' or 'assistant'`
    if (typeof m.content !== 'string' && !Array.isArray(m.content)) return `messages.${i}.content: Input should be a valid list`
  }
  if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system)) return 'system: Input should be a valid string'
  if (body.tools !== undefined && !Array.isArray(body.tools)) return 'tools: Input should be a valid list'
  for (const [i, t] of (body.tools ?? []).entries()) {
    if (typeof t?.name !== 'string' || !t.name) return `tools.${i}.custom.name: Field required`
    if (!t.type && (typeof t.input_schema !== 'object' || !t.input_schema)) return `tools.${i}.custom.input_schema: Field required`
  }
  return undefined
}

function unknownTag(path: string, type: unknown, tags: string[]): string {
  return `${path}: Input tag '${String(type)}' found using 'type' does not match any of the expected tags: ${tags.map((t) => `'${t}'`).join(', ')}`
}

function checkBlocks(body: any): string | undefined {
  for (const [i, b] of systemBlocks(body).entries()) {
    if (b?.type !== 'text') return `system.${i}.type: Input should be 'text'`
    if (typeof b.text !== 'string' || !b.text) return 'system: text content blocks must be non-empty'
  }
  for (const [i, m] of body.messages.entries()) {
    if (typeof m.content === 'string' && !m.content && i < body.messages.length - 1) return 'messages: text content blocks must be non-empty'
    if (Array.isArray(m.content) && !m.content.length && !(m.role === 'assistant' && i === body.messages.length - 1)) {
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`
    }
    for (const [j, b] of contentBlocks(m).entries()) {
      const path = `messages.${i}.content.${j}`
      if (!REQUEST_BLOCK_TYPES.includes(b?.type)) return unknownTag(path, b?.type, REQUEST_BLOCK_TYPES)
      if (m.role === 'user' && ASSISTANT_ONLY.has(b.type)) return `${path}: \`${b.type}\` blocks can only be in \`assistant\` messages`
      if (m.role === 'assistant' && USER_ONLY.has(b.type)) return `${path}: \`${b.type}\` blocks can only be in \`user\` messages`
      const bad = checkBlock(path, b)
      if (bad) return bad
    }
  }
  return undefined
}

function checkBlock(path: string, b: any): string | undefined {
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' && b.text ? undefined : 'messages: text content blocks must be non-empty'
    case 'image':
    case 'document':
      return b.source && typeof b.source === 'object' ? undefined : `${path}.${b.type}.source: Field required`
    case 'tool_use':
      if (typeof b.id !== 'string' || !b.id) return `${path}.tool_use.id: Field required`
      if (typeof b.name !== 'string' || !b.name) return `${path}.tool_use.name: Field required`
      return b.input && typeof b.input === 'object' && !Array.isArray(b.input) ? undefined : `${path}.tool_use.input: Input should be a valid dictionary`
    case 'tool_result': {
      if (typeof b.tool_use_id !== 'string' || !b.tool_use_id) return `${path}.tool_result.tool_use_id: Field required`
      if (b.content === undefined || typeof b.content === 'string') return undefined
      if (!Array.isArray(b.content)) return `${path}.tool_result.content: Input should be a valid list`
      const tags = ['text', 'image', 'document']
      for (const [k, c] of b.content.entries()) if (!tags.includes(c?.type)) return unknownTag(`${path}.tool_result.content.${k}`, c?.type, tags)
      return undefined
    }
    case 'thinking':
      if (typeof b.thinking !== 'string') return `${path}.thinking.thinking: Field required`
      return typeof b.signature === 'string' ? undefined : `${path}.thinking.signature: Field required`
    case 'redacted_thinking':
      return typeof b.data === 'string' ? undefined : `${path}.redacted_thinking.data: Field required`
  }
  return undefined
}

function checkCacheControl(body: any): string | undefined {
  const marked: { path: string; block: any }[] = []
  ;(body.tools ?? []).forEach((t: any, i: number) => marked.push({ path: `tools.${i}`, block: t }))
  systemBlocks(body).forEach((b, i) => marked.push({ path: `system.${i}`, block: b }))
  body.messages.forEach((m: any, i: number) => contentBlocks(m).forEach((b, j) => marked.push({ path: `messages.${i}.content.${j}`, block: b })))
  if (body.cache_control) marked.push({ path: 'cache_control', block: { cache_control: body.cache_control } })
  for (const { path, block } of marked) {
    const cc = block?.cache_control
    if (cc === undefined || cc === null) continue
    if (THINKING.has(block.type)) return `${path}.${block.type}.cache_control: Extra inputs are not permitted`
    const at = path === 'cache_control' ? path : `${path}.cache_control`
    if (cc.type !== 'ephemeral') return `${at}.type: Input should be 'ephemeral'`
    if (cc.ttl !== undefined && cc.ttl !== '5m' && cc.ttl !== '1h') return `${at}.ttl: Input should be '5m' or '1h'`
  }
  const found = breakpointPaths(body).length
  if (found > MAX_BREAKPOINTS) return `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${found}.`
  return undefined
}

function checkThinkingConfig(body: any): string | undefined {
  const t = body.thinking
  if (t === undefined || t === null) return undefined
  if (!['enabled', 'disabled', 'adaptive'].includes(t.type)) return unknownTag('thinking', t.type, ['enabled', 'disabled', 'adaptive'])
  if (t.type === 'enabled') {
    if (!Number.isInteger(t.budget_tokens)) return 'thinking.enabled.budget_tokens: Field required'
    if (t.budget_tokens < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024'
    if (body.max_tokens <= t.budget_tokens) {
      return `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. ${THINKING_DOCS}#max-tokens-and-context-window-size`
    }
  }
  const forced = body.tool_choice?.type === 'any' || body.tool_choice?.type === 'tool'
  if (thinkingOn(body) && forced) return 'Thinking may not be enabled when tool_choice forces tool use.'
  return undefined
}

function toolUseIds(m: any): string[] {
  return m?.role === 'assistant' ? contentBlocks(m).filter((b) => b?.type === 'tool_use').map((b) => b.id) : []
}

function checkToolPairs(body: any): string | undefined {
  const seen = new Set<string>()
  const messages: any[] = body.messages
  for (const [i, m] of messages.entries()) {
    for (const [j, b] of contentBlocks(m).entries()) {
      if (b.type !== 'tool_use') continue
      if (seen.has(b.id)) return `messages.${i}.content.${j}: \`tool_use\` ids must be unique`
      seen.add(b.id)
    }
    const asked = toolUseIds(m)
    const next = messages[i + 1]
    if (asked.length && next) {
      const answered = new Set(next.role === 'user' ? contentBlocks(next).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : [])
      const missing = asked.filter((id) => !answered.has(id))
      if (missing.length) {
        return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. ` +
          'Each `tool_use` block must have a corresponding `tool_result` block in the next message.'
      }
    }
    if (m.role !== 'user') continue
    const previous = new Set(toolUseIds(messages[i - 1]))
    for (const [j, b] of contentBlocks(m).entries()) {
      if (b.type === 'tool_result' && !previous.has(b.tool_use_id)) {
        return `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${b.tool_use_id}. ` +
          'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.'
      }
    }
  }
  return undefined
}

function hasToolResult(m: any): boolean {
  return m?.role === 'user' && contentBlocks(m).some((b) => b.type === 'tool_result')
}

/** The assistant messages that must open with a thinking block, by the rule in force. */
function mustThink(messages: any[], rule: 'turn' | 'every'): number[] {
  if (rule === 'every') return messages.flatMap((m, i) => (toolUseIds(m).length ? [i] : []))
  if (!hasToolResult(messages.at(-1))) return []
  // the current turn starts after the last user message that is not (only) tool results
  let start = messages.length - 1
  while (start > 0 && !(messages[start].role === 'user' && !hasToolResult(messages[start]))) start--
  const first = messages.findIndex((m, i) => i > start && m.role === 'assistant')
  return first < 0 ? [] : [first]
}

function checkThinkingBlocks(body: any, o: RuleOptions): string | undefined {
  const messages: any[] = body.messages
  for (const [i, m] of messages.entries()) {
    const blocks = contentBlocks(m)
    if (m.role !== 'assistant') continue
    if (blocks.some((b) => THINKING.has(b.type)) && !THINKING.has(blocks[0].type)) {
      return `messages.${i}.content.0: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. ` +
        `Found ${blocks[0].type}.`
    }
    for (const [j, b] of blocks.entries()) {
      if (b.type === 'thinking' && !o.verifySignature(b.thinking, b.signature)) return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`
      if (b.type === 'redacted_thinking' && !o.verifyRedacted(b.data)) return `messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`
    }
  }
  const last = messages.length - 1
  if (!thinkingOn(body)) {
    const j = messages[last].role === 'assistant' ? contentBlocks(messages[last]).findIndex((b) => THINKING.has(b.type)) : -1
    if (j >= 0) {
      return `messages.${last}.content.${j}: When thinking is disabled, an \`assistant\` message in the final position cannot contain \`thinking\`. ` +
        'To use thinking blocks, enable `thinking` in your request.'
    }
    return undefined
  }
  for (const i of mustThink(messages, o.thinkingRule ?? 'turn')) {
    const found = contentBlocks(messages[i])[0]?.type ?? 'nothing'
    if (THINKING.has(found)) continue
    return `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${found}\`. ` +
      'When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and ' +
      '`tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. ' +
      THINKING_DOCS
  }
  return undefined
}
