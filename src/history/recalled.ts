// Recalled messages (SPEC §19): the fact stays in the history (nothing stored is lost), and
// everything that shows the history to the model reads "[recalled]" instead of its content.
import type { Entry, Fact } from './entries'

export const RECALLED_TEXT = '[recalled]'

/** The fact as the model reads it once recalled: no content, no quote text, no media. */
export function recalledFact(f: Fact): Fact {
  const { quote, ...rest } = f
  return { ...rest, content: RECALLED_TEXT, recalled: true, ...(quote ? { quote: { id: quote.id, ...(quote.userId ? { userId: quote.userId } : {}) } } : {}) }
}

/**
 * Applies the `recalled` entries of `entries` to the facts they name, in place, and drops the
 * attachments those facts brought (a recalled picture is not shown either). Returns the ids
 * recalled, for a caller that keeps reading later entries.
 */
export function maskRecalled(entries: Entry[], known: Set<string> = new Set()): Set<string> {
  for (const e of entries) if (e.type === 'recalled') known.add(e.id)
  if (!known.size) return known
  const attachments = new Set<string>()
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]
    if (e.type === 'fact' && !e.fact.recalled && known.has(e.fact.id)) {
      entries[i] = { ...e, fact: recalledFact(e.fact) }
      attachments.add(factAttachmentId(e.fact))
    }
  }
  if (attachments.size) {
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i]
      if (e.type === 'attachments' && e.source === 'fact' && attachments.has(e.id)) entries.splice(i, 1)
    }
  }
  return known
}

/** The id of the attachments entry a fact's media make (runtime/request/attachment-entries.ts). */
export function factAttachmentId(f: Fact): string {
  return `fact-${f.id}`
}
