// Who spoke lately in each place (SPEC §27 "Who is who"): when the mind writes under people/ a URL
// that is no one's note, the refusal names the note it meant, found by the name it used. Kept per
// conversation (a private chat inside a cross-mode one is a place of its own, so a group never hears
// of it), bounded, and freed when the conversation unloads.
import { BoundedMap } from '../util/bounded-set'
import { fromSafeName } from '../util/safe-name'
import { shownId } from '../util/transcript-text'

/** speakers kept per conversation */
const KEPT = 64
/** conversations kept (each is freed when it unloads; this bounds the rest) */
const CONVERSATIONS = 1000
/** characters of a write's text looked at for a name */
const TEXT_LOOKED_AT = 4000

export interface Speaker {
  /** the display name as lines show it */
  name: string
  id: string
  /** their note's URL */
  url: string
}

/** What memory's guard asks: the recent speaker of `place` (in `conversation`) a name or a text means. */
export interface SpeakerLookup {
  /** the latest speaker whose display name or id is `name` (case, spaces, `_` and `-` aside) */
  named(conversation: string, place: string, name: string): Speaker | undefined
  /** the latest speaker whose display name `text` mentions */
  mentioned(conversation: string, place: string, text: string): Speaker | undefined
}

interface Kept extends Speaker {
  place: string
}

export class RecentSpeakers implements SpeakerLookup {
  private byConversation = new BoundedMap<string, BoundedMap<string, Kept>>(CONVERSATIONS)

  /** Told of every message: kept cheap (names are folded only when a refusal asks). */
  saw(conversation: string, place: string, s: Speaker): void {
    let kept = this.byConversation.get(conversation)
    if (!kept) this.byConversation.set(conversation, kept = new BoundedMap(KEPT))
    kept.set(`${place}\u0000${s.id}`, { ...s, place })
  }

  forget(conversation: string): void {
    this.byConversation.delete(conversation)
  }

  named(conversation: string, place: string, name: string): Speaker | undefined {
    const wanted = new Set([fold(name), fold(fromSafeName(name))])
    wanted.delete('')
    return this.latest(conversation, place, s => wanted.has(fold(s.name)) || wanted.has(fold(s.id)))
  }

  mentioned(conversation: string, place: string, text: string): Speaker | undefined {
    const looked = text.slice(0, TEXT_LOOKED_AT).toLowerCase()
    // a name of one letter is in every text
    return this.latest(conversation, place, s => s.name.length > 1 && looked.includes(s.name.toLowerCase()))
  }

  private latest(conversation: string, place: string, match: (s: Kept) => boolean): Speaker | undefined {
    const kept = this.byConversation.get(conversation)
    if (!kept) return undefined
    const found = [...kept.entries()].reverse().find(([, s]) => s.place === place && match(s))?.[1]
    return found && { name: found.name, id: found.id, url: found.url }
  }
}

/** How a speaker reads in a refusal: `Alice (42)`. */
export function speakerText(s: Speaker): string {
  return `${s.name} (${shownId(s.id)})`
}

function fold(s: string): string {
  return s.toLowerCase().replace(/[\s_-]+/g, '')
}
