// Searching what parts offer (SPEC §17; stickers by their labels, SPEC §19): each part's documents
// are analyzed as messages are (analyze.ts: Chinese and Japanese words and characters, English
// stems) and ranked by BM25 on their own, each a whole: unlike messages and note lines, a document
// is not found through its neighbours, and a term counts once in it (a label says "happy" in its
// name, description and tags: that is no more happy than saying it once). The documents are few and in memory; their index is made
// again when the part's version changes. Scores come with their scale (what a document holding the
// whole query would score), so search.ts sets them beside notes and messages.
import { analyze, type QueryTerm } from './analyze'
import { Bm25 } from './bm25'
import type { Searchable, SearchableDoc } from '../part/runtime-part'

export interface PartHit {
  doc: SearchableDoc
  score: number
  scale: number
}

interface Index {
  version: string
  docs: readonly SearchableDoc[]
  /** term → (document, term frequency) */
  postings: Map<string, { n: number; tf: number }[]>
  lengths: number[]
  bm25: Bm25
}

function indexOf(s: Searchable): Index {
  const postings = new Map<string, { n: number; tf: number }[]>()
  const lengths: number[] = []
  s.docs.forEach((doc, n) => {
    const tfs = new Map<string, number>()
    const tokens = analyze(doc.text)
    for (const t of tokens) tfs.set(t.term, 1)
    for (const [term, tf] of tfs) {
      let list = postings.get(term)
      if (!list) postings.set(term, list = [])
      list.push({ n, tf })
    }
    lengths.push(tokens.length)
  })
  const bm25 = new Bm25(lengths.length, lengths.reduce((a, b) => a + b, 0))
  return { version: s.version, docs: s.docs, postings, lengths, bm25 }
}

export class PartSearch {
  private indexes = new Map<number, Index>()

  /** `sources`: each part's documents, in part order. */
  search(sources: readonly Searchable[], terms: readonly QueryTerm[], limit: number): PartHit[] {
    if (!terms.length) return []
    const hits: PartHit[] = []
    sources.forEach((source, i) => {
      let idx = this.indexes.get(i)
      if (idx?.version !== source.version || idx.docs !== source.docs) this.indexes.set(i, idx = indexOf(source))
      hits.push(...rankIndex(idx, terms))
    })
    for (const i of [...this.indexes.keys()]) if (i >= sources.length) this.indexes.delete(i)
    return hits.sort((a, b) => b.score / b.scale - a.score / a.scale).slice(0, limit)
  }
}

function rankIndex(idx: Index, terms: readonly QueryTerm[]): PartHit[] {
  const N = idx.docs.length
  if (!N) return []
  const scores = new Float64Array(N)
  let scale = 0
  for (const { term, weight } of terms) {
    const list = idx.postings.get(term)
    const df = list?.length ?? 0
    const q = weight * idx.bm25.idf(df)
    scale += q
    for (const { n, tf } of list ?? []) scores[n] += idx.bm25.score(q, tf, idx.lengths[n])
  }
  const out: PartHit[] = []
  for (let n = 0; n < N; n++) if (scores[n] > 0) out.push({ doc: idx.docs[n], score: scores[n], scale: scale || 1 })
  return out
}
