// What ranking reads of an index part: a segment on disk or the live buffer in memory.
import type { RecallDoc } from './docs'

/** One speaker of an index part: the `who` column holds indexes into its table. */
export interface Speaker {
  uid: string
  name: string
  /** messages of this speaker in the part */
  n: number
}

export interface Source {
  readonly from: number
  readonly count: number
  readonly totalLen: number
  readonly speakers: readonly Speaker[]
  /** the number of documents holding `term`, with a handle for `decode` */
  find(term: string): { df: number; handle: unknown } | undefined
  /** Writes the postings (global document numbers, term counts, length codes) from index `at`. */
  decode(handle: unknown, docs: Int32Array, tfs: Uint16Array, lens: Uint8Array, at: number): void
  /** the `at` (seconds) or `who` column of local documents [a, b) */
  column(name: 'at' | 'who', a: number, b: number): Uint32Array
  doc(local: number): RecallDoc
  /** closes what a read opened */
  release(): void
}
