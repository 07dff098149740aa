// Anthropic's prompt cache, imitated for the fake Messages API. Follows Anthropic's "Prompt caching"
// document: the prefix runs tools → system → messages; a `cache_control` breakpoint caches the
// prefix ending at its block; a breakpoint reads the longest earlier-written prefix it finds by
// looking back block by block (at most 20 blocks); prefixes under the model's minimum are neither
// written nor read, silently; entries live 5 minutes (or 1 h with `ttl: '1h'`), refreshed on a hit;
// changing `thinking` or `tool_choice` invalidates the messages part but not tools or system.
// The top-level `cache_control` (automatic caching) puts one breakpoint on the last cacheable block.
import { createHash } from 'node:crypto'

/** How far back a breakpoint looks for an earlier prefix, in blocks ("Prompt caching"). */
export const LOOKBACK_BLOCKS = 20
export const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const
export type CacheTtl = keyof typeof TTL_MS

/** The fake's token estimate: ceil(characters / 4) of a text, so tests can compute expected figures. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4)
}

/**
 * One block's tokens: the text of text / thinking blocks, else the block's JSON without
 * `cache_control` (tools, images, tool_use, tool_result, redacted thinking), each by `estimateTokens`.
 */
export function blockTokens(block: any): number {
  if (block?.type === 'text' && typeof block.text === 'string') return estimateTokens(block.text)
  if (block?.type === 'thinking' && typeof block.thinking === 'string') return estimateTokens(block.thinking)
  return estimateTokens(stableJson(withoutCacheControl(block)))
}

/** One block of the prompt in cache order, with the running prefix it ends. */
export interface Segment {
  /** where it is in the request, e.g. `tools.0`, `system.1`, `messages.2.content.0` */
  path: string
  section: 'tools' | 'system' | 'messages'
  block: any
  tokens: number
  /** tokens of the prefix ending with this block */
  cumulative: number
  /** identifies the prefix ending with this block (same key: same prefix content) */
  key: string
  /** set when the block carries a breakpoint (or the automatic one lands on it) */
  ttl?: CacheTtl
}

/** The system prompt as blocks: a string is one text block. */
export function systemBlocks(body: any): any[] {
  if (typeof body?.system === 'string') return body.system ? [{ type: 'text', text: body.system }] : []
  return Array.isArray(body?.system) ? body.system : []
}

/** A message's content as blocks: a string is one text block. */
export function contentBlocks(message: any): any[] {
  if (typeof message?.content === 'string') return [{ type: 'text', text: message.content }]
  return Array.isArray(message?.content) ? message.content : []
}

const UNCACHEABLE = new Set(['thinking', 'redacted_thinking'])

/** The request's blocks in cache order (tools → system → messages), with prefix keys and breakpoints. */
export function segmentsOf(body: any): Segment[] {
  const out: Segment[] = []
  let key = hash(`model:${body?.model ?? ''}`)
  let cumulative = 0
  const push = (path: string, section: Segment['section'], block: any, identity: string) => {
    const tokens = blockTokens(block)
    cumulative += tokens
    key = hash(`${key}|${identity}`)
    const ttl = block?.cache_control ? ttlOf(block.cache_control) : undefined
    out.push({ path, section, block, tokens, cumulative, key, ...(ttl ? { ttl } : {}) })
  }
  const tools: any[] = Array.isArray(body?.tools) ? body.tools : []
  tools.forEach((t, i) => push(`tools.${i}`, 'tools', t, stableJson(withoutCacheControl(t))))
  systemBlocks(body).forEach((b, i) => push(`system.${i}`, 'system', b, stableJson(withoutCacheControl(b))))
  // thinking and tool_choice settings are part of the messages' prefix, not of tools or system
  const settings = stableJson({ thinking: body?.thinking ?? null, tool_choice: body?.tool_choice ?? null })
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : []
  let first = true
  messages.forEach((m, i) => {
    contentBlocks(m).forEach((b, j) => {
      const head = first ? `settings:${settings}|` : ''
      first = false
      // the role and the message boundary are content too: the same text as another role is another prefix
      push(`messages.${i}.content.${j}`, 'messages', b, `${head}${m?.role}|${j === 0 ? 'start' : ''}|${stableJson(withoutCacheControl(b))}`)
    })
  })
  if (body?.cache_control) {
    const last = [...out].reverse().find((s) => !UNCACHEABLE.has(s.block?.type))
    if (last && !last.ttl) last.ttl = ttlOf(body.cache_control)
  }
  return out
}

/** The `cache_control` markers of a request (block-level plus the top-level one), with their paths. */
export function breakpointPaths(body: any): string[] {
  const paths: string[] = []
  const tools: any[] = Array.isArray(body?.tools) ? body.tools : []
  tools.forEach((t, i) => t?.cache_control && paths.push(`tools.${i}`))
  if (Array.isArray(body?.system)) body.system.forEach((b: any, i: number) => b?.cache_control && paths.push(`system.${i}`))
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : []
  messages.forEach((m, i) => contentBlocks(m).forEach((b, j) => b?.cache_control && paths.push(`messages.${i}.content.${j}`)))
  if (body?.cache_control) paths.push('cache_control')
  return paths
}

export interface CacheUsage {
  input_tokens: number
  cache_creation_input_tokens: number
  cache_read_input_tokens: number
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number }
}

export interface PromptCacheOptions {
  /** the shortest prefix that is cached (Anthropic: 1024, 2048 or 4096 tokens by model); default 1024 */
  minCacheTokens?: number
  /** the clock, in ms; default Date.now */
  now?: () => number
}

interface Entry { expires: number; ttl: CacheTtl; tokens: number }

/** The server's cache of prefixes: what earlier requests wrote, and what a request reads and writes. */
export class PromptCache {
  readonly minCacheTokens: number
  private entries = new Map<string, Entry>()
  private offset = 0

  constructor(private o: PromptCacheOptions = {}) {
    this.minCacheTokens = o.minCacheTokens ?? 1024
  }

  now(): number {
    return (this.o.now?.() ?? Date.now()) + this.offset
  }

  /** Moves the cache's clock on (entries expire by it). */
  advance(ms: number): void {
    this.offset += ms
  }

  /** The live entries: the token length of each cached prefix. */
  cachedPrefixes(): number[] {
    const now = this.now()
    return [...this.entries.values()].filter((e) => e.expires > now).map((e) => e.tokens).sort((a, b) => a - b)
  }

  reset(): void {
    this.entries.clear()
    this.offset = 0
  }

  /** What the request would read and write, without touching the cache. */
  peek(body: any): CacheUsage & { readAt?: Segment; writes: Segment[] } {
    const segments = segmentsOf(body)
    const total = segments.at(-1)?.cumulative ?? 0
    const now = this.now()
    const big = (s: Segment) => s.cumulative >= this.minCacheTokens
    const breakpoints = segments.map((s, i) => ({ s, i })).filter(({ s }) => s.ttl)
    let readAt: Segment | undefined
    for (const { i } of breakpoints) {
      // look back from the breakpoint, block by block, for a prefix an earlier request wrote
      for (let p = i; p >= Math.max(0, i - LOOKBACK_BLOCKS); p--) {
        const s = segments[p]
        const e = this.entries.get(s.key)
        if (e && e.expires > now && big(s) && (!readAt || s.cumulative > readAt.cumulative)) readAt = s
      }
    }
    const read = readAt?.cumulative ?? 0
    const writes = breakpoints.map(({ s }) => s).filter(big)
    const split = { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }
    let from = read
    for (const w of writes) {
      if (w.cumulative <= from) continue
      split[w.ttl === '1h' ? 'ephemeral_1h_input_tokens' : 'ephemeral_5m_input_tokens'] += w.cumulative - from
      from = w.cumulative
    }
    const creation = split.ephemeral_5m_input_tokens + split.ephemeral_1h_input_tokens
    return {
      input_tokens: total - read - creation,
      cache_creation_input_tokens: creation,
      cache_read_input_tokens: read,
      cache_creation: split,
      readAt,
      writes,
    }
  }

  /** Accounts one answered request: reads (refreshing the entry it hit), writes every breakpoint's prefix. */
  account(body: any): CacheUsage {
    const { readAt, writes, ...usage } = this.peek(body)
    const now = this.now()
    if (readAt) {
      const e = this.entries.get(readAt.key)!
      e.expires = Math.max(e.expires, now + TTL_MS[e.ttl])
    }
    for (const w of writes) {
      const ttl = w.ttl ?? '5m'
      const e = this.entries.get(w.key)
      const expires = now + TTL_MS[ttl]
      if (!e || e.expires <= now) this.entries.set(w.key, { expires, ttl, tokens: w.cumulative })
      else if (expires > e.expires) Object.assign(e, { expires, ttl })
    }
    return usage
  }
}

function ttlOf(cacheControl: any): CacheTtl {
  return cacheControl?.ttl === '1h' ? '1h' : '5m'
}

function withoutCacheControl(block: any): any {
  if (!block || typeof block !== 'object') return block
  const { cache_control: _drop, ...rest } = block
  return rest
}

/** JSON with sorted keys, so the same content always gives the same key. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : 1))
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${stableJson(x)}`).join(',')}}`
  }
  return JSON.stringify(v) ?? 'null'
}

function hash(s: string): string {
  return createHash('sha256').update(s).digest('base64url')
}
