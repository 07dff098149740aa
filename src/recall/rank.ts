// Ranking one conversation's messages for a query (docs/recall.md "Ranking"): BM25 over single
// messages, where each query term counts for a message as much as it matches the message itself,
// or half of what it matches the next message before or after it, or a quarter two away: a reply
// ("yes, every Sunday") is found through the question next to it. The author's name and the day
// add their own weight. Candidates are the messages holding a term and their direct neighbours.
import { LRUCache } from 'lru-cache'
import { analyze, type QueryTerm } from './analyze'
import { Bm25 } from './bm25'
import { LENGTHS } from './codec'
import { dateTest, type DateMatch } from './dates'
import type { Source } from './source'

const NEAR = 0.5
const FAR = 0.25
/** the author's name counts as half a word */
const WHO = 0.5
/** a date that matches whole days of messages adds up to one rare word */
const DATE = 1
/** more messages on the asked day than this are not all candidates (they still gain its weight) */
const MAX_DATE_CANDIDATES = 20000

export interface Ranked {
  /** the message number in its conversation */
  n: number
  score: number
}

export interface RankResult {
  hits: Ranked[]
  /** what a message matching every part of the query would score, about: the scale of `score` */
  scale: number
  /** the query's terms that occur in this conversation */
  found: string[]
}

interface TermList {
  docs: Int32Array
  w: Float32Array
  /** the most one message can gain from this term (own match; a neighbour's is less) */
  ub: number
}

/** `o.zone`: the zone whose days the dates are (budgets.timezone; '' : the host's). */
export function rank(sources: readonly Source[], terms: readonly QueryTerm[], o: { limit: number; dates?: DateMatch[]; zone?: string }): RankResult {
  const N = sources.reduce((n, s) => n + s.count, 0)
  const empty: RankResult = { hits: [], scale: 1, found: [] }
  if (!N) return empty
  const bm25 = new Bm25(N, sources.reduce((n, s) => n + s.totalLen, 0))
  const idf = (df: number) => bm25.idf(df)
  const lists: TermList[] = []
  const found: string[] = []
  let scale = 0
  for (const { term, weight } of terms) {
    const parts = sources.map(s => s.find(term))
    const df = parts.reduce((n, p) => n + (p?.df ?? 0), 0)
    scale += weight * idf(df)
    if (!df) continue
    found.push(term)
    const docs = new Int32Array(df)
    const tfs = new Uint16Array(df)
    const lens = new Uint8Array(df)
    let at = 0
    parts.forEach((p, i) => {
      if (!p) return
      sources[i].decode(p.handle, docs, tfs, lens, at)
      at += p.df
    })
    const w = new Float32Array(df)
    const q = weight * idf(df)
    let ub = 0
    for (let i = 0; i < df; i++) {
      const x = w[i] = bm25.score(q, tfs[i], LENGTHS[lens[i]])
      if (x > ub) ub = x
    }
    lists.push({ docs, w, ub })
  }
  const speakers = matchSpeakers(sources, terms, bm25)
  const whoMax = speakers.size ? WHO * Math.max(...speakers.values()) : 0
  const dated = o.dates?.length ? datedDocs(sources, dateTest(o.dates, o.zone)) : undefined
  const dateBonus = dated ? DATE * idf(dated.count) : 0
  scale += whoMax + dateBonus
  // MaxScore: candidates come from the terms worth most, one more at a time, until what the
  // others could add at most to a message without them falls below the k-th best score
  const finders = [...lists].sort((a, b) => b.ub - a.ub)
  const others = whoMax + dateBonus
  let essential = Math.min(1, finders.length)
  for (;;) {
    // the messages of an asked day are candidates of their own only when no word of the query was found
    const candidates = candidatesOf(finders.slice(0, essential), N, lists.length ? undefined : dated?.docs)
    const scores = score(sources, lists, candidates, speakers, dated, dateBonus)
    const hits = topK(candidates, scores, o.limit)
    const theta = hits.length < o.limit ? 0 : hits[hits.length - 1].score
    let rest = others
    for (let i = essential; i < finders.length; i++) rest += finders[i].ub
    if (essential >= finders.length || rest < theta) return { hits, scale: scale || 1, found }
    // the fewest more terms that bring what the rest could add under the bar
    while (essential < finders.length && rest >= theta) rest -= finders[essential++].ub
  }
}

function score(
  sources: readonly Source[],
  lists: TermList[],
  candidates: Int32Array,
  speakers: Map<string, number>,
  dated: ReturnType<typeof datedDocs> | undefined,
  dateBonus: number,
): Float64Array {
  const scores = new Float64Array(candidates.length)
  if (!candidates.length) return scores
  // a message that holds no word of the query itself is found through its neighbours only when it
  // is by the person asked about or of the day asked about (a reply; otherwise neighbours pad the hits)
  const own = new Uint8Array(candidates.length)
  for (const list of lists) addTerm(list, candidates, scores, own)
  if (speakers.size) addSpeakers(sources, speakers, candidates, scores, own)
  if (dated) {
    for (let i = 0; i < candidates.length; i++) {
      if (!dated.test(candidates[i])) continue
      scores[i] += dateBonus
      own[i] = 1
    }
  }
  for (let i = 0; i < candidates.length; i++) if (!own[i]) scores[i] = 0
  return scores
}

/** Each list's contribution to each candidate: its own weight, or its neighbours' scaled down. */
function addTerm({ docs, w }: TermList, candidates: Int32Array, scores: Float64Array, owns: Uint8Array): void {
  let p = 0
  const len = docs.length
  for (let i = 0; i < candidates.length; i++) {
    const d = candidates[i]
    while (p < len && docs[p] < d - 2) p++
    if (p === len) break
    let own = 0
    let near = 0
    let far = 0
    for (let q = p; q < len && docs[q] <= d + 2; q++) {
      const diff = docs[q] - d
      const x = w[q]
      if (diff === 0) own = x
      else if (diff === 1 || diff === -1) near = x > near ? x : near
      else far = x > far ? x : far
    }
    const c = Math.max(own, NEAR * near, FAR * far)
    if (c) scores[i] += c
    if (own) owns[i] = 1
  }
}

/** The messages holding a term of `lists`, with their direct neighbours, and the dated messages: sorted, once each. */
function candidatesOf(lists: TermList[], N: number, dated?: Int32Array): Int32Array {
  let acc: Int32Array = dated ?? new Int32Array(0)
  for (const { docs } of lists) acc = union(acc, withNeighbours(docs, N))
  return acc
}

/** d-1, d, d+1 of every d of a sorted list, sorted, once each. */
function withNeighbours(docs: Int32Array, N: number): Int32Array {
  const out = new Int32Array(3 * docs.length)
  let k = 0
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]
    for (let x = d > 0 ? d - 1 : 0; x <= d + 1 && x < N; x++) if (!k || out[k - 1] < x) out[k++] = x
  }
  return out.subarray(0, k)
}

/** Two sorted lists without repeats as one. */
function union(a: Int32Array, b: Int32Array): Int32Array {
  if (!a.length) return b
  if (!b.length) return a
  const out = new Int32Array(a.length + b.length)
  let i = 0
  let j = 0
  let k = 0
  while (i < a.length && j < b.length) {
    const x = a[i] <= b[j] ? a[i] : b[j]
    if (a[i] === x) i++
    if (b[j] === x) j++
    out[k++] = x
  }
  while (i < a.length) out[k++] = a[i++]
  while (j < b.length) out[k++] = b[j++]
  return out.subarray(0, k)
}

/** Speakers whose name holds a query word, with the weight of being their message (by uid). */
function matchSpeakers(sources: readonly Source[], terms: readonly QueryTerm[], bm25: Bm25): Map<string, number> {
  const words = new Set(terms.filter(t => t.weight >= 0.5).map(t => t.term))
  const counts = new Map<string, number>()
  for (const s of sources) {
    for (const sp of s.speakers) {
      if (!counts.has(sp.uid) && !nameTerms(sp.name).some(t => words.has(t)) && !words.has(sp.uid.toLowerCase())) continue
      counts.set(sp.uid, (counts.get(sp.uid) ?? 0) + sp.n)
    }
  }
  const out = new Map<string, number>()
  for (const [uid, n] of counts) out.set(uid, bm25.idf(n))
  return out
}

const names = new LRUCache<string, string[]>({ max: 10_000 })
function nameTerms(name: string): string[] {
  let t = names.get(name)
  if (!t) names.set(name, t = analyze(name).map(x => x.term))
  return t
}

function addSpeakers(sources: readonly Source[], speakers: Map<string, number>, candidates: Int32Array, scores: Float64Array, own: Uint8Array): void {
  let i = 0
  for (const s of sources) {
    const end = s.from + s.count
    const first = i
    while (i < candidates.length && candidates[i] < end) i++
    if (i === first) continue
    const bonus = s.speakers.map(sp => WHO * (speakers.get(sp.uid) ?? 0))
    if (!bonus.some(Boolean)) continue
    const lo = candidates[first] - s.from
    const who = s.column('who', lo, candidates[i - 1] - s.from + 1)
    for (let c = first; c < i; c++) {
      const b = bonus[who[candidates[c] - s.from - lo]] ?? 0
      scores[c] += b
      if (b) own[c] = 1
    }
  }
}

/** The documents whose time falls on an asked date (their `at` columns read whole). */
function datedDocs(sources: readonly Source[], test: (seconds: number) => boolean) {
  const docs: number[] = []
  let count = 0
  for (const s of sources) {
    const at = s.column('at', 0, s.count)
    for (let i = 0; i < at.length; i++) {
      if (!test(at[i])) continue
      count++
      if (docs.length < MAX_DATE_CANDIDATES) docs.push(s.from + i)
    }
  }
  const all = new Set(docs)
  return { docs: Int32Array.from(docs), count, test: (n: number) => all.has(n) || (count > docs.length && inDate(sources, n, test)) }
}

function inDate(sources: readonly Source[], n: number, test: (seconds: number) => boolean): boolean {
  const s = sources.find(x => n >= x.from && n < x.from + x.count)
  return !!s && test(s.column('at', n - s.from, n - s.from + 1)[0])
}

/** The `k` best, by score, then newest (higher number) first. */
function topK(candidates: Int32Array, scores: Float64Array, k: number): Ranked[] {
  const heap: number[] = []
  const worse = (a: number, b: number) => scores[a] < scores[b] || (scores[a] === scores[b] && candidates[a] < candidates[b])
  for (let i = 0; i < candidates.length; i++) {
    if (scores[i] <= 0) continue
    if (heap.length < k) {
      heap.push(i)
      for (let c = heap.length - 1; c > 0;) {
        const p = (c - 1) >> 1
        if (!worse(heap[c], heap[p])) break
        ;[heap[c], heap[p]] = [heap[p], heap[c]]
        c = p
      }
    } else if (worse(heap[0], i)) {
      heap[0] = i
      for (let c = 0; ;) {
        const l = 2 * c + 1
        const r = l + 1
        let m = c
        if (l < heap.length && worse(heap[l], heap[m])) m = l
        if (r < heap.length && worse(heap[r], heap[m])) m = r
        if (m === c) break
        ;[heap[c], heap[m]] = [heap[m], heap[c]]
        c = m
      }
    }
  }
  return heap.sort((a, b) => worse(a, b) ? 1 : -1).map(i => ({ n: candidates[i], score: scores[i] }))
}
