// The history window trimmed in blocks (SPEC §16 "Trimmed in blocks"), so that consecutive requests
// share their prefix and a server's prompt cache holds. The window keeps its first entry (the
// anchor) while everything from there on fits the limits; when it no longer does, the oldest
// entries are dropped until the window holds `trimTo` of the limits, and that is the new anchor.
// The rules of SPEC §10 are window.ts's: a cut window is an ordinary window with smaller fill.
import type { Entry } from '../../history/entries'
import { mandatoryFrom, sizeOf, windowEntries, type Window, type WindowLimits } from './window'

export interface BlockWindow extends Window {
  /** the first entry of this window, for the next request; undefined: compute afresh */
  anchor?: Entry
}

/**
 * `trimTo` 1 (or more) slides: every request is the newest window that fits, as before SPEC §16.
 * `zone`: the lines' (window.ts sizeOf).
 */
export function blockWindow(entries: Entry[], limits: WindowLimits, trimTo: number, zone: string, anchor?: Entry): BlockWindow {
  if (trimTo >= 1) return windowEntries(entries, limits, zone)
  if (anchor) {
    const kept = fromAnchor(entries, limits, anchor, zone)
    if (kept) return kept
  }
  const whole = windowEntries(entries, limits, zone)
  if (!whole.trimmed) return { ...whole, anchor: whole.over ? undefined : entries[0] }
  const fill = { maxMessages: Math.max(1, Math.floor(limits.maxMessages * trimTo)), maxChars: Math.floor(limits.maxChars * trimTo) }
  const cut = windowEntries(entries, limits, zone, fill)
  // A window with a hole (GAP_NOTE: one turn's steps fill it) or shortened entries cannot be
  // extended; the newest window that fits shows the most of it, and the next request looks again.
  if (cut.gap || cut.over) return whole
  return { ...cut, anchor: cut.entries[0] }
}

/** The sizes summed from an anchor up to an entry, so the next request adds only what came after. */
interface Summed {
  last: Entry
  count: number
  messages: number
  chars: number
}

const summed = new WeakMap<Entry, Summed>()

/** Everything from the anchor on, when it is still in memory, holds what must be shown, and fits. */
function fromAnchor(entries: Entry[], limits: WindowLimits, anchor: Entry, zone: string): BlockWindow | undefined {
  // the anchor is near the front: the history's tail is only appended to (and cut at the front)
  const from = entries.indexOf(anchor)
  if (from < 0 || from > mandatoryFrom(entries)) return undefined
  const known = summed.get(anchor)
  const resume = known && entries[from + known.count - 1] === known.last
  let messages = resume ? known.messages : 0
  let chars = resume ? known.chars : 0
  for (let i = resume ? from + known.count : from; i < entries.length; i++) {
    const u = sizeOf(entries[i], zone)
    messages += u.messages
    chars += u.chars
    if (messages > limits.maxMessages || chars > limits.maxChars) return undefined
  }
  if (entries.length > from) summed.set(anchor, { last: entries[entries.length - 1], count: entries.length - from, messages, chars })
  return { entries: entries.slice(from), over: false, trimmed: from > 0, gap: false, chars, anchor }
}
