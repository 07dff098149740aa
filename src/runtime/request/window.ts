// Which history entries the next request shows (SPEC §10): the newest that fit `context`, never
// separating a tool call from its result (a step entry holds both and is kept or dropped whole),
// and never empty: the facts that woke the turn, its opening (turn-line.ts) and the newest step
// are always in it, even when they alone are over the limits (then they are shortened, see
// shorten.ts). block-window.ts decides when to compute a window afresh (SPEC §16).
import type { Entry } from '../../history/entries'
import { entryLine, perZone } from './entry-line'

export interface WindowLimits {
  maxMessages: number
  maxChars: number
}

export interface Window {
  entries: Entry[]
  /** the mandatory entries alone are over maxChars: shorten them */
  over: boolean
  /** some entries were left out */
  trimmed: boolean
  /** optional entries between the newest step and the waking facts were left out (GAP_NOTE) */
  gap: boolean
  /** the characters of the picked entries */
  chars: number
}

interface Unit {
  messages: number
  chars: number
}

export const GAP_NOTE = '[earlier steps of this turn are outside your context window]'

// Entries never change once written, so their sizes are measured once (per zone: entry-line.ts).
const sizesIn = perZone<Unit>()

/** `zone`: budgets.timezone, the zone the lines show their times in ('' : the host's) */
export function sizeOf(entry: Entry, zone: string): Unit {
  const sizes = sizesIn(zone)
  let unit = sizes.get(entry)
  if (!unit) sizes.set(entry, unit = measure(entry, zone))
  return unit
}

function measure(entry: Entry, zone: string): Unit {
  switch (entry.type) {
    // a fact's line, a note, the turn's opening line with its time
    case 'fact': case 'note': case 'turn': return { messages: 1, chars: entryLine(entry, zone).length }
    case 'step': return { messages: entry.messages.length, chars: JSON.stringify(entry.messages, withoutReasoning).length }
    default: return { messages: 0, chars: 0 }
  }
}

// Kept reasoning goes back only to servers that ask for it (SPEC §11); where it does, the learned
// chars-per-token ratio (context-size.ts) absorbs it, so it never inflates the window's estimate.
const withoutReasoning = (_k: string, v: any) => v?.type === 'reasoning' && typeof v.text === 'string' ? undefined : v

const bearsMessages = (e: Entry) => e.type === 'fact' || e.type === 'note' || e.type === 'step' || e.type === 'turn'

/** Indices that every window holds: [from, length) and, when the turn has stepped, its waking facts. */
function mandatory(entries: Entry[]): { tailFrom: number; head?: [number, number] } {
  const n = entries.length
  let turn = -1
  for (let i = n - 1; i >= 0; i--) if (entries[i].type === 'turn') { turn = i; break }
  let step = -1
  for (let i = n - 1; i > turn; i--) if (entries[i].type === 'step') { step = i; break }
  const woke = wakingFact(entries, turn)
  if (step < 0) {
    // No step yet in this turn: from its waking facts (or its opening, or the newest message) on.
    let from = n
    for (let i = n - 1; i >= 0; i--) if (bearsMessages(entries[i])) { from = i; break }
    const head = woke >= 0 ? woke : turn
    return { tailFrom: head >= 0 ? Math.min(head, from) : from }
  }
  // the turn's opening entries (turn, wake note) stand with the facts that woke it
  let headEnd = turn + 1
  while (headEnd < step && entries[headEnd].type === 'note') headEnd++
  return { tailFrom: step, head: woke >= 0 ? [woke, headEnd] : turn >= 0 ? [turn, headEnd] : undefined }
}

/** The newest fact that woke the turn starting at `turn` (facts arrive before the turn entry). */
function wakingFact(entries: Entry[], turn: number): number {
  for (let i = turn - 1; i >= 0; i--) {
    const e = entries[i]
    if (e.type === 'fact' && e.wake) return i
    if (e.type === 'step' || e.type === 'turn') break
  }
  return -1
}

/** The first index every window must hold (see mandatory). */
export function mandatoryFrom(entries: Entry[]): number {
  const { tailFrom, head } = mandatory(entries)
  return head ? Math.min(head[0], tailFrom) : tailFrom
}

/**
 * The entries of the next request, oldest first. Optional entries are added, newest first, while
 * the window stays within `fill` (the limits unless a cut asks for less, block-window.ts). `zone`:
 * the lines' (sizeOf).
 */
export function windowEntries(entries: Entry[], limits: WindowLimits, zone: string, fill: WindowLimits = limits): Window {
  const { tailFrom, head } = mandatory(entries)
  const must = (i: number) => i >= tailFrom || (!!head && i >= head[0] && i < head[1])
  let messages = 0
  let chars = 0
  for (let i = 0; i < entries.length; i++) {
    if (!must(i)) continue
    const u = sizeOf(entries[i], zone)
    messages += u.messages
    chars += u.chars
  }
  const over = chars > limits.maxChars
  const picked: Entry[] = []
  let refused = false
  let gap = false
  let kept = 0
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]
    if (must(i)) {
      if (refused && !gap && picked.length) {
        // optional entries between the newest step and the waking facts were left out
        picked.push({ type: 'note', at: e.at, kind: 'info', text: GAP_NOTE })
        gap = true
      }
      picked.push(e)
      kept++
      continue
    }
    if (refused) continue
    const u = sizeOf(e, zone)
    if (messages + u.messages > fill.maxMessages || chars + u.chars > fill.maxChars) {
      refused = true
      continue
    }
    messages += u.messages
    chars += u.chars
    picked.push(e)
    kept++
  }
  // A window must not open on a tool message; step entries keep call and result together, so
  // only an assistant message could lead, which every provider accepts.
  return { entries: picked.reverse(), over, trimmed: kept < entries.length, gap, chars }
}
