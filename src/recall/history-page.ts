// A history:// page (SPEC §17): a conversation around one message, as `read` shows it — one line
// a message, read like the request's lines (`[time] name (id) #id: text`), the asked one marked,
// and a head that says where the page is and how to go on. A page longer than the text budget is
// archived as an artifact and paged from there, as any non-file scheme's text is (SPEC §5.3).
import { formatTime } from '../history/render-facts'
import { displayName, indentContinuation, shownId } from '../util/transcript-text'
import type { RecallDoc } from './docs'
import { historyUrl } from './history-url'

/** messages shown on each side of the asked one */
export const AROUND = 10

export interface Page {
  key: string
  /** the page's messages, from `first` (its number in the conversation) */
  first: number
  docs: RecallDoc[]
  total: number
  /** the asked message's number */
  target?: number
  /** ids of the nearest messages before and after the page that make the pages next to it */
  earlier?: string
  later?: string
}

/** One message as a line (more lines when the text has them); `zone`: budgets.timezone. */
export function messageLine(d: RecallDoc, o: { cross: boolean; marked: boolean; zone: string }): string {
  const where = o.cross && d.ch ? ` [${shownId(d.ch)}]` : ''
  // who said what (SPEC §22): the name by the name rule, ids escaped, the text's later lines indented
  const name = displayName(d.who, d.uid)
  const who = d.self ? `${name} (you)` : `${name} (${shownId(d.uid)})`
  const id = d.id ? ` #${shownId(d.id)}` : ''
  return `${o.marked ? '→ ' : ''}[${formatTime(d.at, o.zone)}]${where} ${who}${id}: ${indentContinuation(d.text)}`
}

/** The page: a line that says where it is and how to go on, then the messages (`hidden` ones left out, SPEC §22). */
export function renderPage(p: Page, o: { cross: boolean; zone: string; hidden?: (d: RecallDoc) => boolean }): string {
  const nav: string[] = []
  if (p.earlier !== undefined) nav.push(`earlier: ${historyUrl(p.key, p.earlier)}`)
  if (p.later !== undefined) nav.push(`later: ${historyUrl(p.key, p.later)}`)
  const head = p.docs.length
    ? `[conversation ${p.key}: ${p.docs.length} of its ${p.total} messages${nav.length ? `; ${nav.join('; ')}` : ''}]`
    : `[conversation ${p.key} has no messages yet]`
  const lines = p.docs.map((d, i) => o.hidden?.(d) ? '' : messageLine(d, { cross: o.cross, marked: p.first + i === p.target, zone: o.zone }))
  return [head, ...lines.filter(Boolean)].join('\n') + '\n'
}

/**
 * The id of the message nearest to `docs[at]` that has one (a send whose id the platform did not
 * tell has none), looking no further than `lo`..`hi` of `docs`; `usable` leaves some out.
 */
export function nearestId(docs: readonly RecallDoc[], at: number, lo: number, hi: number, usable: (d: RecallDoc) => boolean): string | undefined {
  for (let step = 0; at - step >= lo || at + step <= hi; step++) {
    for (const i of step ? [at - step, at + step] : [at]) {
      const d = i >= lo && i <= hi ? docs[i] : undefined
      if (d?.id && usable(d)) return d.id
    }
  }
  return undefined
}
