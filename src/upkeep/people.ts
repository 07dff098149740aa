// The [people] block of a chunk (SPEC §26 "the present notes"): each person who wrote in it, their
// note's exact URL and what it says now, read through the resource center with the run's scope (a
// group's run never reads a private section; a private chat's shows that person's). Bounded: the
// notes of MAX_PEOPLE people, NOTE_CHARS of each, a longer one ending with how to read it whole;
// the URLs of MAX_LISTED people, so a fact of anyone in the chunk can be proposed.
import type { RecallDoc } from '../recall/docs'
import { personUrl } from '../people/people-path'
import type { ReadResult, ReadScope } from '../resources/types'
import { displayName, shownId } from '../util/transcript-text'

export const MAX_PEOPLE = 20
/** people listed with their note's URL (a chunk of a busy group has 30 to 60 writers) */
export const MAX_LISTED = 100
export const NOTE_CHARS = 1_200

export type ReadText = (url: string, scope: ReadScope) => Promise<ReadResult>

/** What a note says now, cut; undefined when there is none (or this chat may not read it). */
async function noteText(read: ReadText, url: string, scope: ReadScope): Promise<string | undefined> {
  const r = await read(url, scope).catch((): undefined => undefined)
  if (r?.kind !== 'text' || !r.text.trim()) return undefined
  const text = r.text.trimEnd()
  const cut = text.length > NOTE_CHARS ? `${text.slice(0, NOTE_CHARS)}… (cut: read ${url} for the rest)` : text
  return cut.split('\n').map(l => `  ${l}`).join('\n')
}

export async function peopleBlock(docs: readonly RecallDoc[], o: { platform: string; scope: ReadScope; read: ReadText }): Promise<string> {
  const people = new Map<string, string>()
  for (const d of docs) if (!d.self && !people.has(d.uid)) people.set(d.uid, displayName(d.who, d.uid))
  if (!people.size) return ''
  const partner = o.scope.chat?.direct ? o.scope.chat.user : undefined
  const lines = ['[people] the notes of the people in these messages:']
  let read = 0
  for (const [uid, name] of [...people].slice(0, MAX_LISTED)) {
    const url = personUrl(o.platform, uid)
    // every person's URL is listed (a fact of theirs can be proposed); the first MAX_PEOPLE notes are shown
    if (read >= MAX_PEOPLE) {
      lines.push(`- ${name} (id ${shownId(uid)}): ${url}`)
      continue
    }
    read++
    const note = await noteText(o.read, url, o.scope)
    lines.push(`- ${name} (id ${shownId(uid)}): ${url}${note ? '' : ' (no note yet)'}`)
    if (note) lines.push(note)
    if (uid === partner) {
      const own = personUrl(o.platform, uid, true)
      const kept = await noteText(o.read, own, o.scope)
      if (kept) lines.push(`  their private section (${own}):`, kept)
    }
  }
  if (people.size > MAX_PEOPLE) lines.push(`(the notes of the people after the first ${MAX_PEOPLE} are not shown: read them by their URL)`)
  if (people.size > MAX_LISTED) {
    const form = personUrl(o.platform, 'x').replace(/x\.md$/, '<user id>.md')
    lines.push(`- and ${people.size - MAX_LISTED} more: their notes are ${form}`)
  }
  return lines.join('\n')
}
