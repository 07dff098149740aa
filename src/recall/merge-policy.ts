// When segments merge (docs/recall.md "Files"): `mergeFactor` consecutive segments of one size
// class (≤ liveMax messages, ≤ liveMax × factor, …) become one, so the number of segments grows
// with the logarithm of the history.

export interface IndexTuning {
  /** messages in the live buffer before it becomes a segment */
  liveMax: number
  /** distinct terms in the live buffer before it becomes a segment: its dictionary is its memory */
  liveTerms: number
  /** UTF-16 units of text in the live buffer before it becomes a segment */
  liveChars: number
  /** segments of one size class that merge into one */
  mergeFactor: number
}

export const DEFAULT_TUNING: IndexTuning = { liveMax: 2048, liveTerms: 16384, liveChars: 1 << 20, mergeFactor: 4 }

/** What a segment has that the policy reads. */
export interface Sized {
  count: number
}

function sizeClass(count: number, t: IndexTuning): number {
  return count <= t.liveMax ? 0 : Math.floor(Math.log(count / t.liveMax) / Math.log(t.mergeFactor) + 1e-9)
}

/** Where the first run of `mergeFactor` segments of one size class starts, or -1. */
export function mergeAt(segments: readonly Sized[], t: IndexTuning): number {
  const f = t.mergeFactor
  for (let i = 0; i + f <= segments.length; i++) {
    const cls = sizeClass(segments[i].count, t)
    if (segments.slice(i, i + f).every(s => sizeClass(s.count, t) === cls)) return i
  }
  return -1
}
