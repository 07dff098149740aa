// One claim matcher for routing and for cross-mode targets (SPEC §1).
import { channelForms } from './channel-key'

/** Why a pattern is malformed, or undefined when it is fine. */
export function patternError(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string') return 'must be a string'
  const body = pattern.startsWith('!') ? pattern.slice(1) : pattern
  if (!body) return 'is empty'
  if (/\s/.test(body)) return 'must not contain white space'
  const star = body.indexOf('*')
  if (star >= 0 && star !== body.length - 1) return '"*" may stand only at the end'
  return undefined
}

export function matchPattern(pattern: string, value: string): boolean {
  if (pattern === '*') return true
  if (pattern.endsWith('*')) return value.startsWith(pattern.slice(0, -1))
  return pattern === value
}

/** Claimed when one positive pattern matches a spelling and no exclusion matches any. */
export function matchChannels(patterns: string[], forms: string[]): boolean {
  let positive = false
  for (const p of patterns) {
    if (p.startsWith('!')) {
      if (forms.some(f => matchPattern(p.slice(1), f))) return false
    } else if (!positive && forms.some(f => matchPattern(p, f))) positive = true
  }
  return positive
}

/** `bot` is 'platform:selfId'; `channel` a channel key (either spelling of it matches). */
/** A profile's claim as the matcher reads it (config's `Claim`). */
export interface Claim {
  bot: string
  channels: string[]
}

export function isClaimed(claims: Claim[], bot: string, channel: string): boolean {
  const forms = channelForms(channel)
  return claims.some(c => matchPattern(c.bot, bot) && matchChannels(c.channels, forms))
}

/** Some claim of `claims` names `bot` (any channel): the profile may run on that bot. */
export function claimsBot(claims: Claim[], bot: string): boolean {
  return claims.some(c => matchPattern(c.bot, bot) && c.channels.some(p => !p.startsWith('!')))
}
