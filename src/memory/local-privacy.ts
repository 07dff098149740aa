// What one chat may see of local:// and what its writes become (SPEC §22 "What one chat learns
// stays in that chat"; the people folder's guard of "What it sends cannot reach the host"):
// - a file a private chat wrote (private-files.ts) exists only in that chat: elsewhere reads and
//   listings do not show it, and a write treats it as missing (creating one at its path: forbidden);
// - a person's public note exists only in conversations where that person has written (writers.ts);
// - a private section (<id>.private.md) is read only in its chat, listed nowhere else, never moved;
// - a private chat writes no shared file: it would reach every group (docs/security.md);
// - under people/ only notes of people who wrote in this chat are written (people/note-rule.ts).
// Unscoped (the owner's console, the runtime itself): everything, as on disk.
import { ResourceError } from '../resources/errors'
import { hidden } from '../resources/scope'
import type { ReadScope, WriteRequest } from '../resources/types'
import { isPrivateNote, isPublicNote, partnerOf, PeopleGuard, personUrl } from '../people/people-path'
import type { PrivateFiles } from './private-files'
import type { WriteRules } from './write-local'
import type { Writers } from '../people/writers'
import { isOddPeoplePath, noteRefusal, type WriteWhere } from '../people/note-rule'
import type { SpeakerLookup } from '../people/speakers'

export class LocalPrivacy {
  readonly people: PeopleGuard

  /** `speakers`: who spoke lately where, so a refused note write names the note meant */
  constructor(private platform: string, readonly files: PrivateFiles, readonly writers: Writers, private speakers?: SpeakerLookup) {
    this.people = new PeopleGuard(platform)
  }

  /** Whether the file at `rel` (under local/) exists for `scope`. */
  visible(rel: string, scope: ReadScope | undefined): boolean {
    if (!scope) return true
    const owner = this.files.chatOf(rel)
    if (owner !== undefined && owner !== privateChat(scope)) return false
    if (isPrivateNote(rel)) return this.people.own(rel, partnerOf(scope))
    if (isPublicNote(rel)) return this.wroteHere(rel, scope)
    return true
  }

  /**
   * Whether the person of note `rel` has written where `scope` reads: its conversation, or (a
   * cross-mode turn held in a private chat) that chat; writers are recorded by place (people-part.ts).
   */
  private wroteHere(rel: string, scope: ReadScope): boolean {
    if (scope.chat?.direct && this.writers.has(scope.chat.channel, rel)) return true
    return scope.conversation !== undefined && this.writers.has(scope.conversation, rel)
  }

  /** A read of `rel` (resolved from `url`): a private section elsewhere is forbidden, a file this chat must not know of missing. */
  checkRead(rel: string, url: string, scope: ReadScope | undefined): void {
    if (!scope) return
    this.people.readRel(rel, url, partnerOf(scope))
    if (!this.visible(rel, scope)) throw hidden(url)
  }

  /**
   * The write as it is made (a private chat's partner's note is its private section) and its rules.
   * `pinned`: a file shown in every request (a private chat never makes one: it would be every chat's).
   */
  prepare(
    url: string, request: WriteRequest, scope: ReadScope | undefined, pinned: (rel: string) => boolean = () => false,
  ): { url: string; request: WriteRequest; rules?: WriteRules } {
    if (!scope) return { url, request }
    const partner = partnerOf(scope)
    return { ...this.people.write(url, request, partner), rules: this.rules(scope, pinned, textOf(request)) }
  }

  private rules(scope: ReadScope, pinned: (rel: string) => boolean, text: string | undefined): WriteRules {
    const chat = privateChat(scope)
    const partner = partnerOf(scope)
    const where: WriteWhere | undefined = scope.conversation !== undefined
      ? { conversation: scope.conversation, place: chat ?? scope.conversation } : undefined
    return {
      check: (t, role) => {
        if (isPrivateNote(t.rel) && (role === 'from' || role === 'to')) {
          throw new ResourceError('forbidden', `${t.url} is a private section: it stays where it is (nothing moves out of it or onto it)`)
        }
        // whether the note exists or not: the same answer
        if (isPublicNote(t.rel) && !this.wroteHere(t.rel, scope)) throw noteRefusal(this.platform, this.speakers, t.url, t.rel, where)
        // an odd file there may be cleaned up (removed, or moved to a note's URL), not written
        if (isOddPeoplePath(t.rel) && role !== 'remove' && role !== 'from') throw noteRefusal(this.platform, this.speakers, t.url, t.rel, where, text)
        if (t.exists && !this.visible(t.rel, scope)) {
          if (role === 'write' || role === 'to') throw new ResourceError('forbidden', `${t.url} cannot be written from this chat; choose another name`)
          return true
        }
        const shared = t.exists ? this.files.chatOf(t.rel) === undefined && !isPrivateNote(t.rel) && role !== 'to' : pinned(t.rel)
        if (chat !== undefined && shared) {
          const note = partner !== undefined ? `${personUrl(this.platform, partner)} (this person's note) or in ` : ''
          throw new ResourceError('forbidden', `${t.url} is shared with every chat, and this chat is private: keep what you learn here in ${note}a new file;`
            + ' what you write in this chat stays private to it')
        }
        return false
      },
      // a private chat's new folders are its own too (their names are what it learned); a shared
      // file inside a private chat's folder makes the folder shared
      wrote: (rel, created, folders) => !created ? Promise.resolve()
        : this.files.mark(chat ? [...folders, rel] : [...this.files.privateFoldersAbove(rel), rel], chat),
      moved: (from, to, folders) => this.files.moved(from, to, folders),
      removed: rel => this.files.mark([rel], undefined),
    }
  }
}

/** What a write puts in its file (a name in it may say whose note it meant). */
function textOf(request: WriteRequest): string | undefined {
  if ('content' in request) return request.content
  if ('append' in request) return request.append
  return 'edit' in request ? request.edit.replace : undefined
}

/** The private chat a scope is in (its channel key). */
function privateChat(scope: ReadScope): string | undefined {
  return scope.chat?.direct ? scope.chat.channel : undefined
}
