// The standard wake engine: private messages, mentions, quotes of the bot, pokes of the bot (SPEC
// §19), names (SPEC §15: they count as a mention), keywords (SPEC §1). Other notices never wake.
import h from '@satorijs/element'
import type { WakeEngine, WakeEngineContext } from './wake-engine'
import { visibleText } from '../util/elements'
import { nameMatcher } from './names'

export function standardWakeEngine(ctx: WakeEngineContext): WakeEngine {
  const keywords = ctx.config.keywords.filter(k => k)
  const names = nameMatcher(ctx.config.names)
  return {
    judge(fact) {
      const c = ctx.config
      if (fact.notice) return fact.pokesBot && c.poke !== false ? 'poke' : undefined
      if (c.direct && fact.direct) return 'direct'
      if (c.mention && fact.mentionsBot) return 'mention'
      if (c.quote && fact.quote && (fact.quotesBot || ctx.sentByBot(fact.quote.id))) return 'quote'
      if (!keywords.length && !ctx.config.names?.length) return undefined
      const text = visibleText(h.parse(fact.content))
      const name = names.find(text)
      if (name && c.mention) return `name:${name}`
      const hit = keywords.find(k => text.includes(k))
      if (hit) return `keyword:${hit}`
      return undefined
    },
  }
}
