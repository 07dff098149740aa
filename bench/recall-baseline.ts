// The baseline of bench 14: plain BM25 over single messages (k1 1.2, b 0.75), words as
// Intl.Segmenter cuts them, lower-cased, nothing else: no stemming, no stop words, no neighbours,
// no names or dates. It sees the same messages and questions as recall.

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' })

export function plainWords(text: string): string[] {
  const out: string[] = []
  for (const s of segmenter.segment(text.toLowerCase())) if (s.isWordLike) out.push(s.segment)
  return out
}

export class PlainBm25 {
  private postings = new Map<string, { doc: number; tf: number }[]>()
  private lens: number[] = []

  add(text: string): void {
    const doc = this.lens.length
    const words = plainWords(text)
    this.lens.push(words.length)
    const tf = new Map<string, number>()
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1)
    for (const [w, n] of tf) {
      let p = this.postings.get(w)
      if (!p) this.postings.set(w, p = [])
      p.push({ doc, tf: n })
    }
  }

  search(query: string, k: number): number[] {
    const N = this.lens.length
    const avgdl = this.lens.reduce((a, b) => a + b, 0) / N
    const scores = new Map<number, number>()
    for (const w of new Set(plainWords(query))) {
      const p = this.postings.get(w)
      if (!p) continue
      const idf = Math.log(1 + (N - p.length + 0.5) / (p.length + 0.5))
      for (const { doc, tf } of p) scores.set(doc, (scores.get(doc) ?? 0) + idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * this.lens[doc] / avgdl)))
    }
    return [...scores].sort((a, b) => b[1] - a[1] || b[0] - a[0]).slice(0, k).map(([doc]) => doc)
  }
}
