// Catching an index up with its history after a start (docs/recall.md "Survives restarts"): the
// index's newest messages must be the history's, in the same order, as far back as both go; else
// the history was reset or migrated behind its back, the index fell behind by more than the tail,
// or messages it was told while closed went after some it never got (a crash), and it is made
// again. The index may also be ahead: what it was told is not written to the history yet.
import type { RecallDoc } from './docs'
import type { ConvIndex } from './conv-index'

export type CatchUp = { add: RecallDoc[] } | 'rebuild' | 'agreed'

/**
 * What to do with an index whose newest keys are `newest` (empty: an empty index), given the
 * history's tail (`tail`, its documents once each) and whether the history holds more before it.
 */
export function catchUpOf(newest: readonly string[], tail: readonly RecallDoc[], more: boolean): CatchUp {
  if (!newest.length) return more ? 'rebuild' : { add: [...tail] }
  if (!tail.length && !more) return 'agreed'
  const keys = tail.map(d => d.k)
  const agree = (h: number, n: number) => {
    for (; h >= 0 && n >= 0; h--, n--) if (keys[h] !== newest[n]) return false
    return true
  }
  const a = keys.lastIndexOf(newest[newest.length - 1])
  if (a >= 0 && agree(a, newest.length - 1)) return { add: tail.slice(a + 1) }
  const b = newest.lastIndexOf(keys[keys.length - 1])
  if (b >= 0 && agree(keys.length - 1, b)) return 'agreed'
  return 'rebuild'
}

/** Each document once (the history may give a message twice), in order. */
export function onceEach(docs: readonly RecallDoc[]): RecallDoc[] {
  const seen = new Set<string>()
  return docs.filter(d => !seen.has(d.k) && !!seen.add(d.k))
}

/** The history keys of an index's newest messages: its live buffer's, or the last one of its segments. */
export function newestKeysOf(idx: ConvIndex): string[] {
  const { live, segments } = idx
  if (live.count) return live.docs.map(d => d.k)
  const seg = segments.at(-1)
  if (!seg) return []
  try {
    return [seg.doc(seg.count - 1).k]
  } finally {
    seg.release()
  }
}
