// What searching and the history:// scheme use of a runtime's recall (`Recall` implements it).
import type { RuntimeView } from '../tools/types'
import type { ConvIndex } from './conv-index'
import type { Embedder } from './embedder'
import type { MemorySearch } from './memory-search'
import type { VectorStore } from './vectors'

import type { RecallDoc } from './docs'
import type { QueryTerm } from './analyze'
import type { PartHit } from './part-search'
import type { ReadScope } from '../resources/types'

export interface RecallParts {
  readonly view: RuntimeView
  readonly mode: 'channel' | 'cross'
  readonly memory: MemorySearch
  readonly embedder?: Embedder
  now(): number
  /** the conversations a turn of `conversation` may search and read */
  scope(conversation: string | undefined): Promise<string[]>
  index(key: string): Promise<ConvIndex>
  vectorsOf(idx: ConvIndex): VectorStore | undefined
  /** the message was recalled (SPEC §19): search skips it, history:// shows "[recalled]" */
  recalled(doc: RecallDoc): boolean
  /** what the runtime's parts offer to search (stickers), ranked */
  partHits(terms: readonly QueryTerm[], limit: number): PartHit[]
  /** which notes a reader finds (SPEC §22); undefined: every note */
  notesFor(scope: ReadScope | undefined): ((rel: string) => boolean) | undefined
  /** a part of the index did not read: made again from the history */
  repair(key: string, e: Error): void
}
