// What a proposal rests on (SPEC §26): history:// URLs of messages of the run's own conversation
// (and, in cross mode, its chat), each one that exists. Their authors decide what the change may
// say as a fact (provenance.ts).
import type { RecallDoc } from '../recall/docs'
import { parseHistoryUrl } from '../recall/history-url'
import { clip } from '../util/clip'
import { displayName } from '../util/transcript-text'
import type { SourceAuthor } from './proposal'

/** sources one proposal may name */
export const MAX_SOURCES = 20

/** What upkeep reads of a conversation's numbered messages (recall's index). */
export interface MessageIndex {
  readonly count: number
  numberOf(id: string): number | undefined
  docs(a: number, b: number): RecallDoc[]
}

export type Sources = { ok: true; docs: RecallDoc[]; authors: SourceAuthor[] } | { ok: false; message: string }

/** The messages `urls` name, or why they cannot be a proposal's sources. `channel`: cross mode's chat of the run. */
export function resolveSources(urls: readonly string[], o: { key: string; channel?: string; index: MessageIndex; own: string }): Sources {
  if (!urls.length) return { ok: false, message: `name the messages it rests on: sources is a list of their URLs (${o.own}<id>)` }
  if (urls.length > MAX_SOURCES) return { ok: false, message: `at most ${MAX_SOURCES} sources; name the ones it rests on` }
  const docs: RecallDoc[] = []
  for (const url of urls) {
    let id: string | undefined
    let key: string
    try {
      ({ key, id } = parseHistoryUrl(url.trim()))
    } catch {
      return { ok: false, message: `${clip(url)} is not a message's URL (${o.own}<id>)` }
    }
    if (key !== o.key || id === undefined) return { ok: false, message: `${clip(url)} is not a message of this conversation (${o.own}<id>)` }
    const n = o.index.numberOf(id)
    const doc = n === undefined ? undefined : o.index.docs(n, n + 1)[0]
    if (!doc || (o.channel !== undefined && doc.ch !== o.channel)) return { ok: false, message: `${clip(url)}: this conversation has no message #${clip(id)}` }
    docs.push(doc)
  }
  return { ok: true, docs, authors: authorsOf(docs) }
}

/** The people who wrote them, each once; the mind's own messages are no one's claim. */
export function authorsOf(docs: readonly RecallDoc[]): SourceAuthor[] {
  const seen = new Map<string, SourceAuthor>()
  for (const d of docs) if (!d.self && !seen.has(d.uid)) seen.set(d.uid, { id: d.uid, name: displayName(d.who, d.uid) })
  return [...seen.values()]
}
