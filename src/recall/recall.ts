// A runtime's recall (SPEC §17, docs/recall.md): one index per conversation under
// `<home>/recall/<conversation>/`, fed as the conversation appends entries, caught up from the
// history's tail when first opened after a start (catch-up.ts), rebuilt from the whole history
// when missing, unreadable or behind by more than the tail; the indexes open at once are few
// (index-pool.ts), so memory does not grow with the number of conversations either. Once it
// stops, recall neither opens an index nor writes a file.
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { DEFAULT_RECALL, type RecallConfig } from './config'
import type { HistorySide } from '../history/sides'
import type { Entry } from '../history/entries'
import type { RuntimeView } from '../tools/types'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import { safeName } from '../util/safe-name'
import { catchUpOf, newestKeysOf, onceEach } from './catch-up'
import { ClosedAppends } from './closed-appends'
import { ConvIndex } from './conv-index'
import { IndexPool } from './index-pool'
import { DEFAULT_TUNING, type IndexTuning } from './merge-policy'
import { docsOf, type RecallDoc, type SelfName } from './docs'
import { Embedder, type EmbedModel } from './embedder'
import { MemorySearch } from './memory-search'
import type { ReadScope } from '../resources/types'
import type { QueryTerm } from './analyze'
import { PartSearch, type PartHit } from './part-search'
import type { Searchable } from '../part/runtime-part'
import { PendingAdds } from './pending'
import { historyScheme } from './history-scheme'
import type { RecallParts } from './parts'
import { searchRecall, type SearchHit } from './search'
import { CorruptIndex } from './segment'
import { VectorStore } from './vectors'

const QUIET: Logger = { debug() {}, info() {}, warn() {}, error() {} }

/** entries of the history's tail read to catch up after a start */
const CATCH_UP = 2000

export interface RecallDeps {
  /** the profile's recall section; absent: DEFAULT_RECALL */
  config?: RecallConfig
  /** the runtime's history; recall reads it with a logger of its own (the store already warns about bad lines) */
  history(logger: Logger): HistorySide
  clock: Clock
  botName?: string
  tuning?: IndexTuning
  /** whether message `id` of `channel` was recalled (SPEC §19) */
  recalled?(channel: string, id: string): boolean
  /** what the runtime's parts offer to search (the sticker library's labels) */
  searchable?(): Searchable[]
  /** whether a note (its path under local/) exists for a reader (SPEC §22); absent: every note */
  noteVisible?(rel: string, scope: ReadScope): boolean
}

export class Recall implements RecallParts {
  readonly config: RecallConfig
  readonly memory: MemorySearch
  readonly embedder?: Embedder
  private pool = new IndexPool(key => this.load(key))
  private caughtUp = new Set<string>()
  /** messages appended to closed indexes' logs since they were last open */
  private closedAppends = new ClosedAppends()
  private vectors = new WeakMap<ConvIndex, VectorStore>()
  /** appends not yet handed to the indexes (pending.ts): an append costs nothing on the turn's path */
  private pending: PendingAdds
  private stopped = false
  private readonly self: SelfName
  private offered = new PartSearch()

  constructor(readonly view: RuntimeView, private deps: RecallDeps) {
    this.config = deps.config ?? DEFAULT_RECALL
    this.self = { bot: view.bot, name: deps.botName }
    this.memory = new MemorySearch(join(view.home, 'local'))
    this.pending = new PendingAdds(deps.clock, (key, entries) => this.addNow(key, entries))
    const model = this.config.enabled && this.config.embeddingModel ? view.model(this.config.embeddingModel) : undefined
    if (model?.embed) {
      const embed: EmbedModel = { id: model.config.id, embed: model.embed }
      this.embedder = new Embedder(embed, { logger: view.logger, clock: deps.clock, target: key => this.embedTarget(key) })
    }
  }

  /** Reading a history again for the index: its bad lines were reported when the conversation loaded. */
  private side(): HistorySide {
    return this.deps.history(QUIET)
  }

  private get tuning(): IndexTuning {
    return this.deps.tuning ?? DEFAULT_TUNING
  }

  now(): number {
    return this.deps.clock.now()
  }

  get enabled(): boolean {
    return this.config.enabled
  }

  get mode(): 'channel' | 'cross' {
    return this.view.profile.mode
  }

  /** The documents of history entries of a conversation (a send of channel mode is in its channel). */
  docs(key: string, entries: readonly Entry[]): RecallDoc[] {
    const docs = docsOf(entries, this.self)
    for (const d of docs) if (!d.ch) d.ch = key
    return docs
  }

  /** search({query, limit}) from a turn of `conversation` (the search tool's port). */
  search(
    conversation: string | undefined, query: string, limit: number, signal?: AbortSignal, scope?: ReadScope, paid?: (what: string) => void,
  ): Promise<{ hits: SearchHit[] }> {
    return searchRecall(this, conversation, query, limit, signal, scope, paid)
  }

  /** The notes a reader finds (`scope` absent: the runtime itself, every note). */
  notesFor(scope: ReadScope | undefined): ((rel: string) => boolean) | undefined {
    const visible = this.deps.noteVisible
    return scope && visible ? rel => visible(rel, scope) : undefined
  }

  partHits(terms: readonly QueryTerm[], limit: number): PartHit[] {
    const sources = this.deps.searchable?.() ?? []
    return sources.length ? this.offered.search(sources, terms, limit) : []
  }

  /** The history:// scheme handler, for the runtime's resource center. */
  scheme() {
    return historyScheme(this)
  }

  /**
   * A conversation appended entries (Conversation's `indexed`); never throws. They wait in a batch
   * (pending.ts) taken before anything reads the index. An open index takes a batch at once. A
   * closed one that this process has caught up with its history gets it appended to its log, to be
   * indexed when it opens (a search, its log reaching a segment's worth): a bot in many channels
   * does not open an index per message. (Appending before the catch-up would put them after
   * messages a crash may have lost.)
   */
  add(key: string, entries: readonly Entry[]): void {
    if (!this.enabled || this.stopped || !entries.length) return
    if (this.pending.push(key, entries) >= this.tuning.liveMax) void this.pending.takeNow(key)
  }

  private addNow(key: string, entries: readonly Entry[]): Promise<unknown> | void {
    const failed = (e: any) => this.view.logger.warn('recall: messages of %s could not be indexed: %s', key, e?.message ?? e)
    let docs: RecallDoc[]
    try {
      docs = this.docs(key, entries)
    } catch (e) {
      return failed(e)
    }
    if (!docs.length) return
    const open = this.pool.has(key)
    const caughtUp = this.caughtUp.has(key)
    // stopping, no index opens: one never caught up finds these in its history at the next start
    if (this.stopped && !open && !caughtUp) return
    const opening = !this.stopped && (!caughtUp || !!this.embedder)
    if (open || opening) return this.index(key).then(idx => idx.add(docs)).then(() => this.embedder?.schedule(key)).catch(failed)
    const gone = () => this.caughtUp.delete(key)
    const { waiting, done } = this.closedAppends.append(key, this.dir(key), docs, this.pool.closed(key), gone)
    // a segment's worth waits in the log: index it now
    if (waiting >= this.tuning.liveMax && !this.stopped) return done.then(() => this.index(key)).catch(failed)
    return done.catch(failed)
  }

  /** The open index of a conversation (opened, caught up or rebuilt on first use); refused once recall stopped. */
  index(key: string): Promise<ConvIndex> {
    void this.pending.takeNow(key)
    return this.pool.get(key)
  }

  private dir(key: string): string {
    return join(this.view.home, 'recall', safeName(key))
  }

  private async load(key: string): Promise<ConvIndex> {
    const dir = this.dir(key)
    await this.closedAppends.opening(key)
    let idx: ConvIndex
    let rebuild = false
    try {
      idx = await ConvIndex.open(dir, this.view.logger, this.tuning)
    } catch (e) {
      if (!(e instanceof CorruptIndex)) throw e
      this.view.logger.warn('recall: the index of %s is unreadable (%s); it is made again from the history', key, e.message)
      await rm(dir, { recursive: true, force: true })
      idx = await ConvIndex.open(dir, this.view.logger, this.tuning)
      rebuild = true
    }
    if (this.embedder) {
      const vectors = new VectorStore(dir, this.embedder.model.id)
      await vectors.load()
      this.vectors.set(idx, vectors)
      idx.wiped = () => { void vectors.reset() }
      if (vectors.count > idx.count) await vectors.reset()
    }
    if (rebuild) void this.rebuild(key, idx)
    else if (!this.caughtUp.has(key)) await this.catchUp(key, idx)
    this.caughtUp.add(key)
    if (this.embedder && (this.vectors.get(idx)?.count ?? 0) < idx.count) this.embedder.schedule(key)
    return idx
  }

  /** After a start: the messages the history has beyond the index, from its tail (catch-up.ts). */
  private async catchUp(key: string, idx: ConvIndex): Promise<void> {
    const tail = await this.side().peek(key, CATCH_UP)
    const next = catchUpOf(newestKeysOf(idx), onceEach(this.docs(key, tail.entries)), tail.more)
    if (next === 'rebuild') void this.rebuild(key, idx)
    else if (next !== 'agreed') await idx.add(next.add)
  }

  private rebuild(key: string, idx: ConvIndex): Promise<void> {
    this.view.logger.info('recall: indexing the history of %s', key)
    const side = this.side()
    return idx.rebuild(add => side.scan(key, entries => add(this.docs(key, entries))))
      .then(() => this.embedder?.schedule(key))
      .catch(e => this.view.logger.warn('recall: the history of %s could not be indexed: %s', key, e?.message ?? e))
  }

  private async embedTarget(key: string) {
    if (this.stopped) return undefined
    const index = await this.index(key)
    const vectors = this.vectors.get(index)
    return vectors && { index, vectors }
  }

  vectorsOf(idx: ConvIndex): VectorStore | undefined {
    return this.vectors.get(idx)
  }

  /** The conversations a search from `conversation` may see (SPEC §17): its own; every one in cross mode. */
  async scope(conversation: string | undefined): Promise<string[]> {
    if (conversation === undefined) return []
    if (this.mode !== 'cross') return [conversation]
    const keys = new Set(await this.side().keys())
    keys.add(conversation)
    return [...keys]
  }

  recalled(doc: RecallDoc): boolean {
    return !doc.self && !!doc.id && !!this.deps.recalled?.(doc.ch, doc.id)
  }

  /** A part of the index did not read while searching: it is made again from the history. */
  repair(key: string, e: Error): void {
    if (!this.pool.drop(key, () => rm(this.dir(key), { recursive: true, force: true }))) return
    this.view.logger.warn('recall: the index of %s is unreadable (%s); it is made again from the history', key, e.message)
    this.caughtUp.delete(key)
  }

  /** The conversation's history was reset: its index forgets it. */
  async reset(key: string): Promise<void> {
    if (!this.enabled) return
    const idx = await this.index(key).catch((): undefined => undefined)
    await idx?.clear()
  }

  /** Resolves when every index has done what was asked so far (tests, the benchmark). */
  async idle(): Promise<void> {
    await this.written()
    await this.pool.each(idx => idx.idle())
    await this.embedder?.idle()
  }

  /** Resolves when every append so far is in an index or its log (Runtime.written). */
  async written(): Promise<void> {
    await this.pending.flush()
    await this.closedAppends.idle()
    await this.pool.each(idx => idx.idle())
  }

  /**
   * Refuses new appends at once; hands the waiting batches to the open indexes and the logs of
   * those caught up (no index opens: the others find theirs in the history at the next start),
   * then closes every index and waits for every write. Nothing is written after.
   */
  async stop(): Promise<void> {
    this.stopped = true
    await this.pending.flush()
    await this.embedder?.stop()
    await this.pool.close()
    await this.closedAppends.idle()
  }
}
