// A quoted message's text is shown only when that message belongs to this conversation (SPEC §22):
// the adapter gives a quote's content for any message id (OneBot's get_msg answers across chats), so
// the fact keeps the quoted text (`quote.text`) only when the conversation holds the quoted
// message, else the quote is its id alone. The adapter's `content` is never kept nor shown.
import h from '@satorijs/element'
import type { Fact } from '../history/entries'
import { visibleText } from '../util/elements'

/** the start of the quoted text a fact keeps */
const QUOTE_UNITS = 200

export function heldQuote(fact: Fact, holds: (channel: string, id: string) => boolean): Fact {
  const quote = fact.quote
  if (!quote || (quote.content === undefined && quote.text === undefined)) return fact
  const { content, text: _unchecked, ...rest } = quote
  const text = content && holds(fact.channel, quote.id) ? textOf(content) : ''
  return { ...fact, quote: { ...rest, ...(text ? { text } : {}) } }
}

function textOf(content: string): string {
  try {
    return visibleText(h.parse(content.slice(0, 4 * QUOTE_UNITS))).trim().slice(0, QUOTE_UNITS)
  } catch {
    return ''
  }
}
