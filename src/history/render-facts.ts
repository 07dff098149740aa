// Facts as the model reads them (SPEC §3). Who said what (SPEC §22): the line's head is the
// runtime's; a name, an id and the text are shown by the rules of util/transcript-text.ts, applied
// here at render time so facts stored before those rules read by them too.
import type { Fact } from './entries'
import { CHANNEL_NAME_CHARS, displayName, flattenLines, indentContinuation, shownId } from '../util/transcript-text'
import { safeCut } from '../util/surrogate'
import { wallTime } from '../util/day'
import { reactionWords } from './reaction-line'

/** 'YYYY-MM-DD HH:MM' in `zone` (budgets.timezone; '' : the host's), util/day.ts's wall clock as every day of kotodama */
export function formatTime(ms: number, zone = ''): string {
  return wallTime(ms, zone)
}

/** the start of a quoted message's text a fact line shows */
const QUOTE_CHARS = 100

/** `zone`: budgets.timezone ('' : the host's), the zone of every time the model reads (SPEC §27) */
export function factLine(f: Fact, zone: string): string {
  const at = formatTime(f.at, zone)
  if (f.reactions) return `[${at}] ${reactionWords(f.reactions)}`
  const who = `${displayName(f.user.name, f.user.id)} (${shownId(f.user.id)})`
  // a notice has no message to quote: no #id
  if (f.notice) return indentContinuation(`[${at}] ${who} ${f.content}`)
  return `[${at}] ${who} #${shownId(f.id)}: ${quoteOf(f)}${indentContinuation(f.content)}`
}

/**
 * `(reply to #id)`, with the start of the quoted text when the fact carries it: only a quote of a
 * message its conversation holds keeps its text (runtime/quote-held.ts); the adapter's content
 * (older facts keep it) is never shown.
 */
function quoteOf(f: Fact): string {
  if (!f.quote) return ''
  const text = f.quote.text ? quoteText(f.quote.text) : ''
  return `(reply to #${shownId(f.quote.id)}${text ? ` ${oneLineJson(text)}` : ''}) `
}

/** The quoted text on one line, cut. */
function quoteText(quoted: string): string {
  const text = flattenLines(quoted).replace(/\s+/g, ' ').trim()
  return text.length > QUOTE_CHARS ? `${text.slice(0, safeCut(text, QUOTE_CHARS))}…` : text
}

/** JSON, its line separators escaped too (JSON.stringify leaves U+2028, U+2029 and NEL as they are) */
const oneLineJson = (s: string) => JSON.stringify(s).replace(/[\u2028\u2029\x85]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

export function channelHeader(f: Fact): string {
  const name = f.channelName ? ` name=${oneLineJson(displayName(f.channelName, f.channel, CHANNEL_NAME_CHARS))}` : ''
  return `[channel bot=${oneLineJson(f.bot)} channel=${oneLineJson(f.channel)}${name}]`
}
