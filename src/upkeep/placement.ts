// Where upkeep may propose a change (SPEC §26): under local://memory/ only; a private chat's run only
// to that person's note (written to its private section, as write does there); a group's run never
// to a private section, nor to a file its chat cannot see (a note of someone who never wrote there,
// a private chat's file). The write made on acceptance checks every rule of write again.
import type { TurnChat } from '../contract/tool'
import { personRel, personUrl, isPrivateNote } from '../people/people-path'
import { formatFileUrl, parseFileUrl } from '../resources/file-url'
import type { ReadScope } from '../resources/types'
import { clip } from '../util/clip'

export interface PlacementDeps {
  platform: string
  /** whether the file at `rel` exists for `scope` (memory's guard) */
  visible(rel: string, scope: ReadScope): boolean
}

export type Placement = { ok: true; rel: string } | { ok: false; message: string }

/** A path under local/ as its canonical local:// URL (names escaped again: a note's `%` is `%25`). */
export function localUrl(rel: string): string {
  return formatFileUrl({ scheme: 'local', segments: rel.split('/'), selectors: [], raw: '' })
}

/** The path under local/ of a local://memory/ URL; undefined for anything else. */
export function memoryRel(url: string): string | undefined {
  try {
    const u = parseFileUrl(url.trim())
    if (u.scheme !== 'local' || u.segments[0] !== 'memory' || u.segments.length < 2 || u.selectors.length || u.view) return undefined
    return u.segments.join('/')
  } catch {
    return undefined
  }
}

/** Whether a run of `chat` may propose a change to `url` (`role`: the file changed, or a move's target). */
export function placement(url: string, chat: TurnChat | undefined, scope: ReadScope, d: PlacementDeps): Placement {
  const rel = memoryRel(url)
  if (rel === undefined) return { ok: false, message: `${clip(url)}: upkeep changes the notes under local://memory/ only` }
  if (chat?.direct && chat.user !== undefined) {
    const own = [personRel(d.platform, chat.user), personRel(d.platform, chat.user, true)]
    if (!own.includes(rel)) {
      const note = personUrl(d.platform, chat.user)
      return { ok: false, message: `what is said in a private chat goes only to that person's note: ${note} (it is kept in their private section)` }
    }
    return { ok: true, rel }
  }
  if (isPrivateNote(rel)) return { ok: false, message: `${clip(url)} is a private section: only its own private chat changes it` }
  if (!d.visible(rel, scope)) {
    return { ok: false, message: `${clip(url)} is not a note this chat may change (its person never wrote here, or it belongs to a private chat)` }
  }
  return { ok: true, rel }
}

/** The person whose note `rel` is, among `ids`. */
export function subjectOf(rel: string, ids: readonly string[], platform: string): string | undefined {
  return ids.find(id => personRel(platform, id) === rel || personRel(platform, id, true) === rel)
}
