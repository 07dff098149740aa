// Merges of a conversation's segments in the background (docs/recall.md "Files"): when the policy
// (merge-policy.ts) finds a run of segments of one size class, they are merged into a new file
// off the index's queue; the index then swaps them on its queue, unless it changed meanwhile (a
// wipe, another swap) or closed, in which case the new file goes.
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Logger } from '../util/logger'
import { writeManifest } from './manifest'
import { mergeAt, type IndexTuning } from './merge-policy'
import { Segment } from './segment'
import { mergeSegments } from './segment-merge'

/** What the merger reads and changes of its index. */
export interface MergedIndex {
  segments: Segment[]
  readonly closed: boolean
  /** runs the swap on the index's queue; refused once it closed */
  replace(task: () => Promise<void>): Promise<void>
}

export class SegmentMerger {
  private merging?: Promise<void>
  /** counts wipes: a merge started before one neither swaps nor reports its failure */
  private generation = 0

  constructor(private index: MergedIndex, private dir: string, private tuning: IndexTuning, private logger: Logger) {}

  /** The index forgot its segments: a running merge drops its result. */
  forget(): void {
    this.generation++
  }

  /** Starts a merge when the policy finds one and none runs. */
  maybeMerge(): void {
    if (this.merging || this.index.closed) return
    const at = mergeAt(this.index.segments, this.tuning)
    if (at < 0) return
    const f = this.tuning.mergeFactor
    const run = this.index.segments.slice(at, at + f)
    const file = join(this.dir, `m${run[0].from}-${run[f - 1].from + run[f - 1].count}.seg`)
    const generation = this.generation
    this.merging = (async () => {
      let swapped = false
      try {
        await mergeSegments(run, file)
        await this.index.replace(async () => {
          const segs = this.index.segments
          const i = segs.indexOf(run[0])
          if (generation !== this.generation || i < 0 || run.some((s, k) => segs[i + k] !== s)) return
          const seg = Segment.open(file)
          seg.release()
          segs.splice(i, f, seg)
          swapped = true
          await writeManifest(this.dir, segs)
          for (const s of run) await rm(s.path, { force: true })
        })
      } catch (e: any) {
        // a wipe under a running merge takes its files away: not a failure
        if (generation === this.generation) this.logger.warn('recall: segments of %s could not be merged: %s', this.dir, e?.message ?? e)
      } finally {
        if (!swapped) await rm(file, { force: true }).catch(() => {})
        this.merging = undefined
      }
      if (swapped) this.maybeMerge()
    })()
  }

  /** Resolves when no merge runs. */
  async merged(): Promise<void> {
    while (this.merging) await this.merging
  }
}
