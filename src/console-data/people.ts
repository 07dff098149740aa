// The people a runtime knows, for the console page (SPEC §21): each note under
// local://memory/people/<platform>/, its head bounded as in an opening, the private sections marked.
import { join } from 'node:path'
import { formatFileUrl } from '../resources/file-url'
import { readNoteHead, type NoteHead } from '../people/people-notes'
import { PEOPLE_DIR } from '../people/people-path'
import { walkNotes } from '../memory/walk'
import { fromSafeName } from '../util/safe-name'

/** UTF-16 units of a note the page shows */
export const CONSOLE_NOTE_CHARS = 2000
/** people listed at most */
export const MAX_LISTED = 500

export interface PersonNoteView extends NoteHead {
  url: string
}

export interface PersonView {
  platform: string
  id: string
  shared?: PersonNoteView
  /** written in the person's private chat: shown only there */
  private?: PersonNoteView
}

export interface PeopleView {
  enabled: boolean
  people: PersonView[]
}

const NOTE = /^([^/]+)\/([^/]+?)(\.private)?\.md$/

/** `local`: the runtime home's local/ folder. */
export async function peopleNotes(local: string, chars = CONSOLE_NOTE_CHARS): Promise<PersonView[]> {
  const dir = join(local, PEOPLE_DIR)
  const byKey = new Map<string, PersonView>()
  for (const f of await walkNotes(dir, { limit: 2 * MAX_LISTED })) {
    const m = NOTE.exec(f.rel)
    if (!m) continue
    const [platform, id] = [fromSafeName(m[1]), fromSafeName(m[2])]
    const key = `${m[1]}/${m[2]}`
    const person = byKey.get(key) ?? { platform, id }
    byKey.set(key, person)
    const head = await readNoteHead(join(dir, f.rel), chars)
    const url = formatFileUrl({ scheme: 'local', segments: [...PEOPLE_DIR.split('/'), ...f.rel.split('/')], selectors: [], raw: '' })
    if (head) person[m[3] ? 'private' : 'shared'] = { url, ...head }
  }
  return [...byKey.values()].sort((a, b) => a.platform.localeCompare(b.platform) || a.id.localeCompare(b.id)).slice(0, MAX_LISTED)
}
