// People as a part of the runtime (SPEC §21, docs/people.md): the protocol's [people] line, and the
// notes of the people in a turn's new messages as lines of its opening note — never the system
// prompt, so the prompt cache holds. In a private chat the partner's private section is shown too.
import { join } from 'node:path'
import { LRUCache } from 'lru-cache'
import type { PeopleConfig } from './config'
import type { RuntimePart } from '../part/runtime-part'
import { displayName, shownId } from '../util/transcript-text'
import { chatOf } from '../contract/turn-scope'
import { placeOfFact } from '../history/place'
import { personRel, personUrl } from './people-path'
import type { Writers } from './writers'
import type { RecentSpeakers } from './speakers'
import { NoteHeads, type NoteHead } from './people-notes'
import { platformOf, selfIdOf } from '../claims/bot-id'
import { BoundedMap } from '../util/bounded-set'
import { peopleProtocol } from './protocol'

/** people shown in one opening note, the latest speakers */
export const MAX_PEOPLE = 8
/** speakers remembered per conversation between turns */
const KEPT = 4 * MAX_PEOPLE
/**
 * an unchanged note shown in one of a conversation's last this many openings is not shown again:
 * it is still in the context, and repeating it would grow every request's new tail (SPEC §16)
 */
export const REPEAT_AFTER = 10

interface Person {
  platform: string
  id: string
  name: string
}

export interface PeopleDeps {
  config: PeopleConfig
  /** the runtime's local/ folder */
  root: string
  /** 'platform:selfId': its own messages are no one's */
  bot: string
  /** memory is on (without write the mind keeps no notes: the part is off) */
  memory: boolean
  /** who has written where: their notes are shown only there (SPEC §22); recorded whether the part is on or not */
  writers?: Writers
  /** who spoke lately where: memory's guard names the note a refused write meant (SPEC §27); recorded whether the part is on or not */
  speakers?: RecentSpeakers
}

/** The opening notes of the people present, and who wrote where (the writers of memory's guard). */
export function peopleOpenings(d: PeopleDeps): RuntimePart {
  const selfId = selfIdOf(d.bot)
  const protocol = peopleProtocol(platformOf(d.bot))
  /** per conversation, the authors of the facts since its last turn opened, latest last */
  const present = new Map<string, BoundedMap<string, Person>>()
  /** per conversation, its openings so far and the notes they showed (by person: the block, at which opening) */
  const shownIn = new Map<string, { openings: number; shown: BoundedMap<string, { block: string; at: number }> }>()
  const on = () => d.config.enabled && d.memory
  const heads = new NoteHeads()
  // a person's note paths and URLs never change: made once, not at every turn's opening (bench 6)
  const places = new LRUCache<string, NotePlaces>({ max: 512 })
  const placeOf = (key: string, p: Person) => {
    let place = places.get(key)
    if (!place) places.set(key, place = notePlaces(d.root, p))
    return place
  }
  return {
    name: 'people',
    prompt: () => on() ? { protocol } : undefined,
    appended(conversation, entries) {
      for (const e of entries) {
        if (e.type !== 'fact' || !e.fact.user?.id || e.fact.user.id === selfId) continue
        const platform = platformOf(e.fact.bot)
        // a private chat inside a cross-mode conversation is a place of its own: who writes there is
        // neither present in nor a writer of the other channels' turns (SPEC §22)
        const place = placeOfFact(e.fact, conversation)
        d.writers?.saw(place, personRel(platform, e.fact.user.id))
        const key = `${platform}\u0000${e.fact.user.id}`
        const person = { platform, id: e.fact.user.id, name: displayName(e.fact.user.name, e.fact.user.id) }
        d.speakers?.saw(conversation, place, { name: person.name, id: person.id, url: placeOf(key, person).url })
        // cross mode opens its turns with the channels' people only: a private chat's are not shown there
        if (!on() || place !== conversation) continue
        let people = present.get(place)
        // a busy group between turns: only the latest speakers can be shown
        if (!people) present.set(place, people = new BoundedMap(KEPT))
        people.set(key, person)
      }
    },
    async opening(conversation) {
      const people = present.get(conversation)
      present.delete(conversation)
      if (!on() || !people?.size) return undefined
      // the latest speakers, in the order they spoke
      const latest = [...people.entries()].slice(-MAX_PEOPLE)
      const made = latest.map(([key, p]) => personBlock(d, heads, placeOf(key, p), p, chatOf(conversation)?.user === p.id))
      let seen = shownIn.get(conversation)
      if (!seen) shownIn.set(conversation, seen = { openings: 0, shown: new BoundedMap(KEPT * 4) })
      const at = ++seen.openings
      const blocks: string[] = []
      made.forEach((block, i) => {
        const key = latest[i][0]
        const before = seen!.shown.get(key)
        if (before?.block === block && at - before.at < REPEAT_AFTER) return
        seen!.shown.set(key, { block, at })
        blocks.push(block)
      })
      return blocks.length ? ['[people] notes of the people in these messages:', ...blocks].join('\n') : undefined
    },
    // an unloaded conversation's speakers and shown notes are not kept for it (SPEC §17: bounded memory)
    unloaded: conversation => {
      present.delete(conversation)
      shownIn.delete(conversation)
      d.speakers?.forget(conversation)
    },
  }
}

/**
 * A person's line: the note's exact URL, "(no note yet)" without one, so the mind never guesses a
 * URL (SPEC §27); then the note's head, and in their private chat the private section's.
 */
function personBlock(d: PeopleDeps, heads: NoteHeads, at: NotePlaces, p: Person, privateChat: boolean): string {
  const shared = heads.get(at.shared, d.config.noteChars)
  const own = privateChat ? heads.get(at.own, d.config.noteChars) : undefined
  const lines = [`- ${p.name} (id ${shownId(p.id)}): ${at.url}${shared ? '' : ' (no note yet)'}`]
  if (shared) lines.push(indent(shared))
  if (privateChat) {
    lines.push(`  private section, shown only in this chat (your writes to the note above go here): ${at.ownUrl}`)
    if (own) lines.push(indent(own))
  }
  return lines.join('\n')
}

/** Where a person's note and its private section are, on disk and as local:// URLs. */
interface NotePlaces { shared: string; own: string; url: string; ownUrl: string }

function notePlaces(root: string, p: Person): NotePlaces {
  return {
    shared: join(root, personRel(p.platform, p.id)), own: join(root, personRel(p.platform, p.id, true)),
    url: personUrl(p.platform, p.id), ownUrl: personUrl(p.platform, p.id, true),
  }
}

function indent(n: NoteHead): string {
  const more = n.cut ? `\n  (${n.bytes} bytes in all: read the URL for the rest)` : ''
  return n.text.split('\n').map(l => `  ${l}`).join('\n') + more
}

