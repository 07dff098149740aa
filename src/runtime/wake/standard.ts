// The standard wake engine: private messages, mentions, quotes of the bot, keywords (SPEC §1).
import h from '@satorijs/element'
import type { WakeEngine, WakeEngineContext } from './types'
import { visibleText } from '../../util/elements'

export function standardWakeEngine(ctx: WakeEngineContext): WakeEngine {
  const keywords = ctx.config.keywords.filter(k => k)
  return {
    judge(fact) {
      const c = ctx.config
      if (c.direct && fact.direct) return 'direct'
      if (c.mention && fact.mentionsBot) return 'mention'
      if (c.quote && fact.quote && (fact.quotesBot || ctx.sentByBot(fact.quote.id))) return 'quote'
      if (!keywords.length) return undefined
      const text = visibleText(h.parse(fact.content))
      const hit = keywords.find(k => text.includes(k))
      if (hit) return `keyword:${hit}`
      return undefined
    },
  }
}
