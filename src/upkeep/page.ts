// One chunk of a conversation's new messages (SPEC §26: the run's first request holds one page at
// most), as the run's first message: where it is, the notes of the people who wrote, then the
// messages, one line each — `#id name: text` under a line per hour. A message's URL is the
// conversation's history:// URL and its id, said once in the head rather than on every line (a
// busy group's day is a thousand lines). Digits cost a token each (Qwen3, DeepSeek): a minute on
// every line was a fifth of a chunk's tokens (bench 33), and notes need the day, not the minute.
import type { RecallDoc } from '../recall/docs'
import { wallOf, wallTimeWithWeekday, zoneName } from '../util/day'
import { displayName, indentContinuation, shownId } from '../util/transcript-text'

/** characters of message lines one chunk holds (about 8,000 tokens of Chinese chat) */
export const CHUNK_CHARS = 24_000
/** what a line costs beside its text: `#id name: ` */
const LINE_CHARS = 18

/** The messages from `from` that fit one chunk (one at least), read in batches from the index. */
export function chunkOf(docs: (a: number, b: number) => RecallDoc[], from: number, count: number, maxChars = CHUNK_CHARS): { docs: RecallDoc[]; end: number } {
  const out: RecallDoc[] = []
  let chars = 0
  for (let a = from; a < count; a += 200) {
    for (const d of docs(a, Math.min(count, a + 200))) {
      const cost = d.text.length + d.who.length + LINE_CHARS
      if (out.length && chars + cost > maxChars) return { docs: out, end: from + out.length }
      out.push(d)
      chars += cost
    }
  }
  return { docs: out, end: from + out.length }
}

export interface ChunkText {
  /** the conversation's history:// URL */
  own: string
  /** 'a group', 'a private chat with Alice (42)' */
  where: string
  /** message numbers of the chunk, and how many the conversation has */
  first: number
  end: number
  total: number
  zone: string
  /** the [people] block (people.ts) */
  people: string
  /** the mind's text for a message people took back */
  recalled(d: RecallDoc): boolean
}

const pad = (n: number) => String(n).padStart(2, '0')

/** The first message of a chunk's run. */
export function chunkMessage(docs: readonly RecallDoc[], c: ChunkText): string {
  const uids = new Map<string, Set<string>>()
  for (const d of docs) if (!d.self) (uids.get(d.who) ?? uids.set(d.who, new Set()).get(d.who)!).add(d.uid)
  const lines: string[] = []
  let hour = ''
  for (const d of docs) {
    const w = wallOf(d.at, c.zone)
    const now = `${wallTimeWithWeekday(d.at, c.zone).slice(0, 14)} ${pad(w.hour)}:00–${pad(w.hour)}:59`
    if (now !== hour) lines.push(`[${hour = now}]`)
    // a name two people share carries the id
    const name = d.self ? 'you' : displayName(d.who, d.uid) + ((uids.get(d.who)?.size ?? 0) > 1 ? ` (${shownId(d.uid)})` : '')
    const id = d.id ? `#${shownId(d.id)} ` : ''
    lines.push(`${id}${name}: ${c.recalled(d) ? '[taken back]' : indentContinuation(d.text)}`)
  }
  const more = c.end < c.total ? `; ${c.total - c.end} later ones come in the next part of this run` : ''
  const head = `[upkeep of ${c.where}: messages ${c.first + 1}–${c.end} of ${c.total}${more}; times in ${zoneName(c.zone)}. Message #id is ${c.own}/id]`
  return [head, c.people, '[messages]', ...lines].filter(Boolean).join('\n') + '\n'
}
