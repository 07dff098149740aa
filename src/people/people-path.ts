// Where a person's note lives (SPEC §21, docs/people.md): local://memory/people/<platform>/<id>.md,
// the id encoded by safeName (so '/', '..' and '.' never reach the path), and the rule of private
// sections: what is written in a private chat with a person goes to <id>.private.md, which only that
// private chat may read or write.
import { createHash } from 'node:crypto'
import { posix } from 'node:path'
import { ResourceError } from '../resources/errors'
import { formatFileUrl, parseFileUrl } from '../resources/file-url'
import type { ReadScope, WriteRequest } from '../resources/types'
import { clip } from '../util/clip'
import { safeName } from '../util/safe-name'

/** under local/ */
export const PEOPLE_DIR = 'memory/people'
const PRIVATE_EXT = '.private.md'

/** an encoded id longer than this is cut and hashed: with `.private.md` a name stays under the file systems' 255 bytes */
const NAME_UNITS = 200
/** of such an id, the encoded head kept before `~` and the hash */
const HEAD_UNITS = 120

/** The note's path under local/ ('/'-separated); `private`: its private section. */
export function personRel(platform: string, userId: string, priv = false): string {
  return `${PEOPLE_DIR}/${safeName(platform)}/${noteName(userId)}${priv ? PRIVATE_EXT : '.md'}`
}

/**
 * The id's file name: safeName's, or for a very long id its head and a hash of the whole id, after
 * `~`, which safeName never writes (so no short id's name is one of these).
 */
function noteName(userId: string): string {
  const safe = safeName(userId)
  if (safe.length <= NAME_UNITS) return safe
  // never cut inside a %XX
  const escape = safe.lastIndexOf('%', HEAD_UNITS - 1)
  const cut = escape > HEAD_UNITS - 3 ? escape : HEAD_UNITS
  return `${safe.slice(0, cut)}~${createHash('sha256').update(userId).digest('hex').slice(0, 16)}`
}

/** The URL the mind is told: the path's segments escaped as a URL (safeName's '%' becomes '%25'). */
export function personUrl(platform: string, userId: string, priv = false): string {
  return formatFileUrl({ scheme: 'local', segments: personRel(platform, userId, priv).split('/'), selectors: [], raw: '' })
}

/** A path under local/ (or under memory/ with `inMemory`) is a private section of a person's note. */
export function isPrivateNote(rel: string, inMemory = false): boolean {
  const r = (inMemory ? `memory/${rel}` : rel).toLowerCase()
  return r.startsWith(`${PEOPLE_DIR}/`) && r.endsWith(PRIVATE_EXT)
}

/** The person a turn's chat is the private chat with; undefined elsewhere (groups, no single chat). */
export function partnerOf(scope: ReadScope | undefined): string | undefined {
  return scope?.chat?.direct ? scope.chat.user : undefined
}

/** A public person's note: people/<platform>/<id>.md (shown only where that person has written, SPEC §22). */
export function isPublicNote(rel: string): boolean {
  const parts = rel.split('/')
  return parts.length === 4 && `${parts[0]}/${parts[1]}` === PEOPLE_DIR && parts[3].endsWith('.md') && !isPrivateNote(rel)
}

/** The normalised path under local/ a local:// URL names; undefined when it is not one. */
function relOfUrl(url: string): string | undefined {
  try {
    const u = parseFileUrl(url)
    return u.scheme === 'local' ? posix.normalize(u.segments.join('/')).replace(/^\/+/, '') : undefined
  } catch {
    return undefined
  }
}

export class PeopleGuard {
  constructor(private platform: string) {}

  /** Refuses a private section outside its own private chat (a group never sees it: SPEC §21), whether it exists or not. */
  read(url: string, partner: string | undefined): void {
    const rel = relOfUrl(url)
    if (rel !== undefined) this.readRel(rel, url, partner)
  }

  /** As read, for the path a URL resolved to under local/. */
  readRel(rel: string, url: string, partner: string | undefined): void {
    if (!isPrivateNote(rel) || this.own(rel, partner)) return
    throw new ResourceError('forbidden', `${clip(url)} is a private section: only that person's private chat may open it`)
  }

  /** The private section of this private chat's partner. */
  own(rel: string, partner: string | undefined): boolean {
    return partner !== undefined && rel === personRel(this.platform, partner, true)
  }

  /**
   * The write as it is made: in a private chat, the partner's note means its private section;
   * another person's note (people/<platform>/<id>.md) is refused there (it would carry the private
   * chat into groups); other files under people/ are left to the write rule (note-rule.ts).
   */
  write(url: string, request: WriteRequest, partner: string | undefined): { url: string; request: WriteRequest } {
    const target = this.target(url, partner)
    const moveTo = 'moveTo' in request && typeof request.moveTo === 'string' ? this.target(request.moveTo, partner) : undefined
    return { url: target, request: moveTo !== undefined ? { moveTo } : request }
  }

  private target(url: string, partner: string | undefined): string {
    const rel = relOfUrl(url)
    if (rel === undefined || !rel.toLowerCase().startsWith(`${PEOPLE_DIR}/`)) return url
    this.read(url, partner)
    if (partner === undefined) return url
    if (rel === personRel(this.platform, partner)) return personUrl(this.platform, partner, true)
    if (rel === personRel(this.platform, partner, true) || rel.split('/').length !== 4) return url
    throw new ResourceError('forbidden', `in this private chat write only ${personUrl(this.platform, partner)} (it is kept private to this chat)`)
  }
}
