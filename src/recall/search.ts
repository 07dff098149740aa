// search({query, limit}) (SPEC §17): the conversations in scope, local://memory/ and what the
// runtime's parts offer (stickers by their labels, SPEC §19: part-search.ts), ranked by
// keywords (docs/recall.md "Ranking"); with an embeddings model, fused with the nearest vectors by
// reciprocal rank. Lists of different indexes meet on scores scaled by what a message matching
// the whole query would score in each, so a strong note and a strong message stand side by side.
import { queryTerms } from './analyze'
import type { ConvIndex } from './conv-index'
import { queryDates } from './dates'
import type { RecallDoc } from './docs'
import { AROUND, nearestId } from './history-page'
import { historyUrl } from './history-url'
import { formatTime } from '../history/render-facts'
import type { RecallParts } from './parts'
import { CorruptIndex } from './segment'
import { snippet } from './snippet'
import type { SearchHit } from '../tools/search'
import type { ReadScope } from '../resources/types'
import { within } from '../util/within'
import { displayName, flattenLines } from '../util/transcript-text'
import { isDirectKey } from '../claims/channel-key'
import { PaidCallLimit } from '../contract/paid-calls'

export type { SearchHit }

interface Candidate {
  id: string
  score: number
  at: number
  hit: () => SearchHit
}

/** how long a search waits for an index being made again before it searches what is there */
const REBUILD_WAIT_MS = 3000

/** What was asked of the index so far is done; an index being made again gets a few seconds. */
export async function settled(idx: ConvIndex): Promise<void> {
  if (!idx.rebuilding) return idx.idle()
  await within(idx.idle(), REBUILD_WAIT_MS)
}

/** Reciprocal rank fusion's constant. */
const RRF_K = 60

export async function searchRecall(
  recall: RecallParts,
  conversation: string | undefined,
  query: string,
  limit: number,
  signal?: AbortSignal,
  scope?: ReadScope,
  paid?: (what: string) => void,
): Promise<{ hits: SearchHit[] }> {
  const terms = queryTerms(query)
  // times as lines show them, in the chat's zone (budgets.timezone): hits' times, the days a query names
  const zone = recall.view.timezone
  const dates = queryDates(query, recall.now(), zone)
  const pool = Math.max(3 * limit, 30)
  const keyword: Candidate[] = []
  const vector: Candidate[] = []
  const keys = await recall.scope(conversation)
  // cross mode: another private chat's messages are not found (SPEC §22); a private-chat turn finds its own
  const chat = scope?.chat
  const own = chat?.direct ? chat.channel : undefined
  const hidden = (doc: RecallDoc) => recall.mode === 'cross' && !!scope && isDirectKey(doc.ch) && doc.ch !== own
  // past a program's paid calls (SPEC §22) the query is ranked by its words alone, which cost nothing
  const qv = recall.embedder && keys.length && query.trim() && mayPay(paid) ? await recall.embedder.query(query, signal) : undefined
  for (const key of keys) {
    const idx = await recall.index(key)
    await settled(idx)
    const message = (n: number, doc: RecallDoc, found: ReadonlySet<string>): SearchHit => ({
      url: hitUrl(idx, key, n, doc, d => !hidden(d)), id: doc.id, at: formatTime(doc.at, zone),
      who: doc.self ? `${displayName(doc.who, doc.uid)} (you)` : displayName(doc.who, doc.uid), text: snippet(doc.text, found),
    })
    try {
      if (terms.length || dates.length) {
        const r = idx.search(terms, { limit: pool, dates, zone })
        const found = new Set(r.found)
        for (const h of r.hits) {
          const [doc] = idx.docs(h.n, h.n + 1)
          if (!doc || recall.recalled(doc) || hidden(doc)) continue
          keyword.push({ id: `${key}\u0000${h.n}`, score: h.score / r.scale, at: doc.at, hit: () => message(h.n, doc, found) })
        }
      }
      const vectors = qv && recall.vectorsOf(idx)
      if (vectors) {
        const found = new Set(terms.map(t => t.term))
        for (const h of await vectors.search(qv, pool)) {
          // unrelated (orthogonal) or opposite: not a neighbour at all
          if (h.n >= idx.count || h.score <= 0) continue
          const [doc] = idx.docs(h.n, h.n + 1)
          // the index was made again while the vectors were read
          if (!doc || recall.recalled(doc) || hidden(doc)) continue
          vector.push({ id: `${key}\u0000${h.n}`, score: h.score, at: doc.at, hit: () => message(h.n, doc, found) })
        }
      }
    } catch (e) {
      if (!(e instanceof CorruptIndex)) throw e
      recall.repair(key, e)
    }
  }
  const found = new Set(terms.map(t => t.term))
  for (const m of await recall.memory.search(terms, pool, recall.notesFor(scope))) {
    keyword.push({
      id: m.url, score: m.score / m.scale, at: m.at,
      hit: () => ({ url: m.url, id: null, at: formatTime(m.at, zone), who: null, text: snippet(m.text, found) }),
    })
  }
  for (const p of recall.partHits(terms, pool)) {
    const { url, at, shown } = p.doc
    const hit = (): SearchHit => ({ url, id: null, at: formatTime(at, zone), who: null, text: flattenLines(shown) })
    keyword.push({ id: url, score: p.score / p.scale, at, hit })
  }
  const byScore = (a: Candidate, b: Candidate) => b.score - a.score || b.at - a.at
  keyword.sort(byScore)
  const ranked = vector.length ? fuse([keyword.slice(0, pool), vector.sort(byScore)]) : keyword
  return { hits: ranked.slice(0, limit).map(c => c.hit()) }
}

/**
 * A message's URL names it by its id; a send whose id the platform did not tell, by the nearest
 * message that has one (its page shows the send), else the conversation's latest messages.
 */
function hitUrl(idx: ConvIndex, key: string, n: number, doc: RecallDoc, usable: (d: RecallDoc) => boolean): string {
  if (doc.id) return historyUrl(key, doc.id)
  const a = Math.max(0, n - AROUND)
  return historyUrl(key, nearestId(idx.docs(a, n + AROUND + 1), n - a, 0, 2 * AROUND, usable))
}

/** Reciprocal rank fusion: each list gives 1/(60 + rank); newest first among equals. */
function fuse(lists: Candidate[][]): Candidate[] {
  const all = new Map<string, Candidate>()
  for (const list of lists) {
    list.forEach((c, i) => {
      const had = all.get(c.id)
      if (had) had.score += 1 / (RRF_K + i + 1)
      else all.set(c.id, { ...c, score: 1 / (RRF_K + i + 1) })
    })
  }
  return [...all.values()].sort((a, b) => b.score - a.score || b.at - a.at)
}

/** Whether a paid query embedding may be made: always outside a program, within codemode.maxPaidCalls inside one. */
function mayPay(paid: ((what: string) => void) | undefined): boolean {
  try {
    paid?.('an embedding of the query')
    return true
  } catch (e) {
    if (e instanceof PaidCallLimit) return false
    throw e
  }
}
