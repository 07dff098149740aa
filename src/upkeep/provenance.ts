// Provenance (SPEC §26): what people say about themselves may go into their own note as it is;
// what they say about others or the world is kept as their claim, naming them, never as a fact.
// Code checks the text a change adds: when the messages it rests on are someone else's than the
// note's person, the added text must name one of their authors (name or id), or it is refused with
// the words to use. A change that only removes or moves adds nothing and is not checked.
import type { WriteRequest } from '../resources/types'
import type { SourceAuthor } from './proposal'

const lines = (text: string) => text.split('\n').map(l => l.trim()).filter(Boolean)

/** The text a change adds to its file: the lines the new text has and the old one had not. */
export function addedText(change: WriteRequest, old: string | undefined): string {
  if ('append' in change) return change.append
  if ('content' in change) {
    const had = new Set(lines(old ?? ''))
    return lines(change.content).filter(l => !had.has(l)).join('\n')
  }
  if ('edit' in change) {
    const had = new Set(lines(change.edit.find))
    return lines(change.edit.replace).filter(l => !had.has(l)).join('\n')
  }
  return ''
}

/** Whether `text` names the author (their name, or their id). */
function names(text: string, a: SourceAuthor): boolean {
  const low = text.toLowerCase()
  return low.includes(a.id.toLowerCase()) || (a.name.length > 0 && a.name !== '?' && low.includes(a.name.toLowerCase()))
}

/**
 * Why the added text may not be written as it is: it rests on the words of people other than the
 * note's own person (`subject`: that person's id when they wrote a source) and names none of them.
 * `person`: the file is someone's note.
 */
export function claimRefusal(added: string, authors: readonly SourceAuthor[], o: { subject?: string; person: boolean }): string | undefined {
  const others = authors.filter(a => a.id !== o.subject)
  if (!added.trim() || !others.length || others.some(a => names(added, a))) return undefined
  const who = others.map(a => `${a.name} (${a.id})`).join(', ')
  const first = others[0]
  return `these messages are what ${who} said${o.person ? ', not what this person said of themselves' : ''}: keep it as their claim, `
    + `naming them (e.g. "${first.name} (${first.id}) says …"), not as a fact`
}
