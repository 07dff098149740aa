// The one BM25 scorer of recall (docs/recall.md "Ranking"): messages and note lines (rank.ts) and
// what parts offer (part-search.ts) are weighed by the same formula, so their scores, each
// divided by its own scale, stand side by side in one list.

const K1 = 1.2
const B = 0.75

export class Bm25 {
  /** the average document length, in terms */
  readonly avgdl: number

  /** `N` documents whose lengths (in terms) add up to `totalLen` */
  constructor(readonly N: number, totalLen: number) {
    this.avgdl = Math.max(1, totalLen / Math.max(1, N))
  }

  /** A term held by `df` of the documents: rarer weighs more, never below zero. */
  idf(df: number): number {
    return Math.log(1 + (this.N - df + 0.5) / (df + 0.5))
  }

  /** What a term whose query weight times idf is `q` gives a document holding it `tf` times in `len` terms. */
  score(q: number, tf: number, len: number): number {
    return q * tf * (K1 + 1) / (tf + K1 * (1 - B + B * len / this.avgdl))
  }
}
