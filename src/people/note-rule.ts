// The write rule under people/ (SPEC §27 "Who is who", docs/people.md): a file there is a person's
// note, local://memory/people/<platform>/<user id>.md of someone who wrote in the writing chat, or
// its private section. A guessed URL (people/alice.md) would be a note nobody sees in an opening,
// not made private, found by any chat's search: it is refused with the URL the mind meant.
import { ResourceError } from '../resources/errors'
import { clip } from '../util/clip'
import { PEOPLE_DIR, isPrivateNote, isPublicNote, personUrl } from './people-path'
import { speakerText, type SpeakerLookup } from './speakers'

/** Where a write is made: its conversation and its place (a private chat's channel, else the conversation). */
export interface WriteWhere {
  conversation: string
  place: string
}

/** A path under local/ inside people/ that no note can be (people/alice.md, people/x/y/z.md, people/mock/a.txt). */
export function isOddPeoplePath(rel: string): boolean {
  return rel.toLowerCase().startsWith(`${PEOPLE_DIR}/`) && !isPublicNote(rel) && !(isPrivateNote(rel) && rel.split('/').length === 4)
}

/**
 * The refusal of a write under people/ that is not the note of someone who wrote here: the URL to
 * use when the file's name, or else `text` (what an odd file was to hold), names a recent speaker.
 */
export function noteRefusal(
  platform: string, speakers: SpeakerLookup | undefined, url: string, rel: string, where?: WriteWhere, text?: string,
): ResourceError {
  const shown = clip(url)
  const stem = stemOf(rel)
  const named = where && speakers?.named(where.conversation, where.place, stem)
  if (named && named.url !== url) return forbidden(`${shown}: ${clip(stem, 40)} is ${speakerText(named)}: write ${named.url}`)
  const meant = where && text ? speakers?.mentioned(where.conversation, where.place, text) : undefined
  if (meant && meant.url !== url) return forbidden(`${shown} is not a note's URL; if this is about ${speakerText(meant)}: write ${meant.url}`)
  const form = personUrl(platform, '_').slice(0, -'_.md'.length) + '<user id>.md'
  return forbidden(`${shown} is not the note of anyone who wrote in this chat; a note is ${form}: copy it from the [people] line`)
}

function forbidden(message: string): ResourceError {
  return new ResourceError('forbidden', message)
}

/** The file name without its note extension: what the mind called the person. */
function stemOf(rel: string): string {
  const name = rel.slice(rel.lastIndexOf('/') + 1)
  return name.replace(/(\.private)?\.md$/i, '')
}
