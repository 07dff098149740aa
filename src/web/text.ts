// A provider's title, snippet or date as plain text: HTML tags out (Brave marks matches with
// <strong>, pages put markup in titles), entities decoded, whitespace folded, length bounded.
import { clip } from '../util/clip'
import type { WebResult } from './types'

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" }

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (whole, name: string) => {
    const n = name.toLowerCase()
    if (n.startsWith('#x')) return safeChar(parseInt(n.slice(2), 16)) ?? whole
    if (n.startsWith('#')) return safeChar(Number(n.slice(1))) ?? whole
    return ENTITIES[n] ?? whole
  })
}

const safeChar = (code: number) => Number.isInteger(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
  ? String.fromCodePoint(code) : undefined

/** `raw` as plain text of at most `max` units; '' for anything that is no string. */
export function plainText(raw: unknown, max: number): string {
  if (typeof raw !== 'string') return ''
  const text = decode(raw.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<\/?[a-z!][^>]*>/gi, ''))
  // eslint-disable-next-line no-control-regex
  return clip(text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim(), max)
}

/** `raw` when it is an http(s) URL (a result the mind may read next), else undefined: javascript:, data:, relative ones dropped. */
export function resultURL(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length > 2048) return undefined
  try {
    const u = new URL(raw)
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined
  } catch {
    return undefined
  }
}

/** A date as the provider gave it; an ISO time shortened to its day. */
export function resultDate(raw: unknown): string | undefined {
  const text = plainText(raw, 40)
  if (!text) return undefined
  return /^\d{4}-\d{2}-\d{2}T/.test(text) ? text.slice(0, 10) : text
}

/** One result of a provider's answer as the mind reads it; none when its URL is not http(s). */
export function resultOf(r: { url: unknown; title: unknown; snippet: unknown; date: unknown }): WebResult[] {
  const url = resultURL(r.url)
  if (!url) return []
  const date = resultDate(r.date)
  return [{ title: plainText(r.title, 200), url, snippet: plainText(r.snippet, 500), ...date ? { date } : {} }]
}
