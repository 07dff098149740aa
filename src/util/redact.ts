// Every configured secret (model API keys, MCP env and header values) is replaced by *** in every
// log line and every text shown to the model (SPEC §10) — also inside a provider's error message
// that echoes it. A value shorter than MIN_SECRET is no real key (Ollama's placeholder is `ollama`,
// vLLM's `EMPTY`): masking it would garble what people write, so it is left alone.
import { inspect } from 'node:util'
import type { Logger } from './logger'

export const MASK = '***'
/** shorter values are placeholders, not secrets (SPEC §10) */
export const MIN_SECRET = 8

export class Redactor {
  private secrets: string[]

  constructor(secrets: Iterable<string | undefined>) {
    // longest first, so a secret that contains another is masked whole
    this.secrets = [...new Set([...secrets].filter((s): s is string => typeof s === 'string' && s.trim().length >= MIN_SECRET))]
      .sort((a, b) => b.length - a.length)
  }

  get empty(): boolean {
    return !this.secrets.length
  }

  text(s: string): string {
    for (const secret of this.secrets) if (s.includes(secret)) s = s.split(secret).join(MASK)
    return s
  }

  has(s: string): boolean {
    return this.secrets.some(secret => s.includes(secret))
  }

  /** Strings anywhere in a JSON-like value; the value itself when it holds no secret. */
  value<T>(v: T): T {
    if (this.empty) return v
    if (typeof v === 'string') return this.text(v) as T
    if (!v || typeof v !== 'object') return v
    let json: string
    try {
      json = JSON.stringify(v)
    } catch {
      return v
    }
    if (!this.has(json)) return v
    return JSON.parse(json, (_k, x) => typeof x === 'string' ? this.text(x) : x)
  }

  /** A logger whose every argument is masked before it is formatted. */
  logger(base: Logger): Logger {
    const mask = (a: unknown): unknown => {
      if (this.empty || typeof a === 'number' || typeof a === 'boolean' || a == null) return a
      if (typeof a === 'string') return this.text(a)
      if (a instanceof Error) return this.has(a.stack ?? a.message) ? this.text(a.stack ?? a.message) : a
      const shown = inspect(a, { depth: 4 })
      return this.has(shown) ? this.text(shown) : a
    }
    const wrap = (level: keyof Logger) => (format: any, ...args: any[]) => base[level](mask(format), ...args.map(mask))
    return { debug: wrap('debug'), info: wrap('info'), warn: wrap('warn'), error: wrap('error') }
  }
}
