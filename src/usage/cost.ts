// What tokens cost (SPEC §16 "Visible"): prices are per million tokens (a picture's per picture,
// SPEC §24), 0 or absent meaning unknown. Pure arithmetic, shared by the usage book, `kotodama.status` and the console page.
import type { ModelPrice } from '../config/types'

/** The configured price of a model id; undefined when the model or its price is unknown. */
export type PriceOf = (model: string) => ModelPrice | undefined

/** Tokens of one request or of a sum of them, as the server reported them. */
export interface Tokens {
  promptTokens?: number
  cachedTokens?: number
  /** of the prompt tokens, those written to the cache (Anthropic) */
  cacheWriteTokens?: number
  completionTokens?: number
  /** pictures (SPEC §24), priced per picture */
  images?: number
}

const PER = 1e6
const positive = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0

/**
 * A price that can cost a request: input and output set. A cached price of 0 (unknown) counts
 * cached tokens at the input price, so a missing discount never makes the bot look cheaper.
 */
export function knownPrice(p: ModelPrice | undefined): p is ModelPrice {
  return !!p && positive(p.input) && positive(p.output)
}

/**
 * (prompt − cached − written) × input + cached × cachedInput + written × cacheWrite + completion ×
 * output, per million tokens; undefined (not 0) when the price is unknown or the server reported no
 * tokens. An unknown cacheWrite price counts writes at the input price (SPEC §11.1).
 */
export function costOf(u: Tokens, p: ModelPrice | undefined): number | undefined {
  const tokens = tokenCost(u, p)
  // pictures at price.image each; an unknown picture price leaves them uncounted, not free
  if (!positive(u.images) || !positive(p?.image)) return tokens
  return (tokens ?? 0) + u.images * p.image
}

function tokenCost(u: Tokens, p: ModelPrice | undefined): number | undefined {
  if (!knownPrice(p)) return undefined
  if (typeof u.promptTokens !== 'number' && typeof u.completionTokens !== 'number') return undefined
  const prompt = Math.max(0, u.promptTokens ?? 0)
  const cached = Math.min(prompt, Math.max(0, u.cachedTokens ?? 0))
  const written = Math.min(prompt - cached, Math.max(0, u.cacheWriteTokens ?? 0))
  const cachedPrice = positive(p.cachedInput) ? p.cachedInput : p.input
  const writePrice = positive(p.cacheWrite) ? p.cacheWrite : p.input
  return ((prompt - cached - written) * p.input + cached * cachedPrice + written * writePrice + Math.max(0, u.completionTokens ?? 0) * p.output) / PER
}

/** The share of prompt tokens the server served from its cache (0..1); undefined without prompt tokens. */
export function cachedShare(u: Tokens): number | undefined {
  if (!positive(u.promptTokens)) return undefined
  return Math.min(1, Math.max(0, u.cachedTokens ?? 0) / u.promptTokens)
}

/** Adds a cost that may be unknown to a sum that may be unknown: unknown only while both are. */
export function addCost(sum: number | undefined, cost: number | undefined): number | undefined {
  return cost === undefined ? sum : (sum ?? 0) + cost
}

/** A cost for people: a few significant digits, no currency (prices are in the owner's own). */
export function formatCost(cost: number): string {
  if (cost === 0) return '0'
  if (cost >= 100) return cost.toFixed(0)
  if (cost >= 1) return cost.toFixed(2)
  // two significant digits, written out (never 1e-7)
  const digits = Math.min(12, 1 - Math.floor(Math.log10(cost)))
  return cost.toFixed(digits).replace(/\.?0+$/, '')
}

/** A share as a whole percent, e.g. 0.456 → "46%". */
export function formatShare(share: number | undefined): string {
  return share === undefined ? '—' : `${Math.round(share * 100)}%`
}
