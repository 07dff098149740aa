/*
 * One paging engine for every text the model sees (SPEC §6).
 *
 * The core, planPage, looks only at a window: the text from the page start, at least
 * budget.units + 1 units long unless it reaches the end of the range. Strings and files both
 * build such a window and share it, so they page identically.
 *
 * Decisions where the SPEC is silent:
 * - A truncated page ends at the last whole line that fits. A line is cut inside when it alone
 *   does not fit on the page, or when the whole lines before it fill less than half the unit
 *   budget (SPEC §6: a page is never left mostly empty); the rest starts the next page. A page
 *   full by its line count is not topped up.
 * - The note length depends on the digits of the next offset, so each possible digit count
 *   is tried with its own note length and the longest page that really fits wins.
 * - An offset at or past the end of the range gives an empty page without a note; an offset
 *   inside a surrogate pair is invalid_url.
 * - If a continue URL were so long that no body fits beside its note, one code point is
 *   shown anyway so that paging always progresses.
 */
import { codePointLength, safeCut, splitsSurrogatePair } from '../util/surrogate'
import { ResourceError } from './errors'
import type { LineRange } from './file-url'

export interface Budget {
  lines: number
  units: number
}

export const TEXT_BUDGET: Budget = { lines: 2000, units: 30000 }

export interface Page {
  body: string
  /** set when truncated */
  nextOffset?: number
  note?: string
  /** body, or body + ['\n'] + note */
  rendered: string
}

export type ContinueUrl = (nextOffset: number) => string

export function renderTruncatedNote(continueUrl: string): string {
  return `[truncated; to continue, call read({url: ${JSON.stringify(continueUrl)}})]`
}

/** Lines as displayed: a last line without '\n' still counts. */
export function countLines(text: string): number {
  let lines = 0
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++
  return text && !text.endsWith('\n') ? lines + 1 : lines
}

/** The text of lines range.start..range.end (1-based inclusive), newlines included. */
export function sliceLineRange(text: string, range?: LineRange): string {
  if (!range) return text
  if (range.end !== undefined && range.end < range.start) return ''
  const from = lineStartIndex(text, range.start, 0, 1)
  if (from < 0) return ''
  if (range.end === undefined) return text.slice(from)
  const to = lineStartIndex(text, range.end + 1, from, range.start)
  return to < 0 ? text.slice(from) : text.slice(from, to)
}

function lineStartIndex(text: string, line: number, from: number, fromLine: number): number {
  let at = from
  for (let n = fromLine; n < line; n++) {
    const nl = text.indexOf('\n', at)
    if (nl < 0) return -1
    at = nl + 1
  }
  return at < text.length || line === fromLine ? at : -1
}

export function pageString(rangeText: string, offset: number, continueUrl: ContinueUrl, budget = TEXT_BUDGET): Page {
  checkOffset(offset)
  if (offset >= rangeText.length) return wholePage('')
  if (splitsSurrogatePair(rangeText, offset)) throw insidePair(offset)
  const window = rangeText.slice(offset, offset + budget.units + 1)
  return planPage(window, offset + window.length >= rangeText.length, offset, continueUrl, budget)
}

export function checkOffset(offset: number): void {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new ResourceError('invalid_url', `offset ${offset} is not a non-negative integer`)
}

export function insidePair(offset: number): ResourceError {
  return new ResourceError('invalid_url', `offset ${offset} falls inside a character (a surrogate pair)`)
}

/**
 * Plans one page from `window` (text from the page start; at least budget.units + 1 units
 * unless `atEnd`, i.e. it runs to the end of the range).
 */
export function planPage(window: string, atEnd: boolean, offset: number, continueUrl: ContinueUrl, budget = TEXT_BUDGET): Page {
  if (atEnd && window.length <= budget.units && countLines(window) <= budget.lines) return wholePage(window)
  const noteAt = (next: number) => renderTruncatedNote(continueUrl(next))
  let best: Page | undefined
  // longest first: a smaller digit count caps the body below 10^digits - offset, so once the best
  // body reaches that cap no smaller count can beat it (usually one candidate, not five)
  for (let digits = digitCount(offset + budget.units); digits >= digitCount(offset); digits--) {
    if (best && 10 ** digits - 1 - offset <= best.body.length) break
    const page = pageForDigits(window, offset, digits, noteAt, budget)
    if (page && (!best || page.body.length > best.body.length)) best = page
  }
  return best ?? truncatedPage(window.slice(0, codePointLength(window, 0)), offset, noteAt).page
}

/** The longest page whose next offset has at most `digits` digits, noted as such, if it fits the budget. */
function pageForDigits(window: string, offset: number, digits: number, noteAt: (next: number) => string, budget: Budget): Page | undefined {
  const noteLength = noteAt(Math.max(offset, 10 ** (digits - 1))).length
  const maxLength = 10 ** digits - 1 - offset
  const cut = cutLength(window, budget.units - noteLength, maxLength, budget.lines - 1, budget.units / 2)
  if (!cut.length) return undefined
  // the body's newlines are known from the cut: only a cut-inside tail is counted again
  const bodyNewlines = cut.newlines + countNewlines(window, cut.end, cut.length)
  const { page, separator } = truncatedPage(window.slice(0, cut.length), offset, noteAt)
  const lines = bodyNewlines + (separator ? 1 : 0) + countLines(page.note!)
  return page.rendered.length <= budget.units && lines <= budget.lines ? page : undefined
}

/**
 * Body length for `room` units (the separator newline included) and at most `maxLines` lines:
 * whole lines when they fill at least `half` units or `maxLines` lines, else as much of the
 * next line as fits (cut inside it, never between a surrogate pair). Also where the whole
 * lines end and how many newlines they hold.
 */
function cutLength(window: string, room: number, maxLength: number, maxLines: number, half: number): { length: number, end: number, newlines: number } {
  const limit = Math.min(room, maxLength)
  let end = 0
  let lines = 0
  for (let nl = window.indexOf('\n'); nl >= 0 && nl < limit && lines < maxLines; lines++) {
    end = nl + 1
    nl = window.indexOf('\n', end)
  }
  if (end >= half || (end > 0 && lines >= maxLines)) return { length: end, end, newlines: lines }
  // a cut line needs the separator newline before the note: room - 1
  return { length: Math.max(end, safeCut(window, Math.max(0, Math.min(room - 1, maxLength, window.length)))), end, newlines: lines }
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0
  for (let at = text.indexOf('\n', from); at >= 0 && at < to; at = text.indexOf('\n', at + 1)) count++
  return count
}

function truncatedPage(body: string, offset: number, noteAt: (next: number) => string): { page: Page, separator: string } {
  const nextOffset = offset + body.length
  const note = noteAt(nextOffset)
  const separator = body && !body.endsWith('\n') ? '\n' : ''
  return { page: { body, nextOffset, note, rendered: body + separator + note }, separator }
}

function wholePage(body: string): Page {
  return { body, rendered: body }
}

function digitCount(n: number): number {
  return String(n).length
}
