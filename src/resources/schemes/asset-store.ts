// Media people sent (SPEC §5.4): one id per distinct source per runtime, the sidecar written at
// once, the bytes fetched through the host's HTTP client and kept on disk: inbound media in the
// background when they arrive (SPEC §19, their links expire), others on first use.
import { createHash } from 'node:crypto'
import { mkdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { atomicWrite } from '../../util/atomic-write'
import { uuidv7 } from '../../util/uuidv7'
import type { Logger } from '../../util/logger'
import { ResourceError } from '../errors'
import { fsError } from '../fs-error'
import { mediaTypeOfBytes } from '../media-type'
import type { MediaBytes, ReadScope } from '../types'
import { AssetPlaces } from './asset-places'
import { AssetIndex } from './asset-index'
import type { AssetSidecar } from './asset-sidecar'
import { arrivalQueue } from './asset-prefetch'
import { failureMessage, failureOf, type FetchFailure } from './asset-fetch-failure'
import { decodeDataUrl } from './data-url'
import { AssetQuota, type AssetLimits } from './asset-quota'
import { evictedMessage, evictFiles, NOT_KEPT, notKeptMessage } from './asset-eviction'

export const ASSET_MAX_BYTES = 20 * 1024 * 1024
export const ASSET_FETCH_TIMEOUT_MS = 30_000

export interface RegisterOptions {
  /** fetch the bytes now, in the background (inbound media; registration does not wait for them) */
  fetchNow?: boolean
  /** the place that received or made it (resources/scope.ts); absent, none yet: `claim` adds one (SPEC §22) */
  owner?: string
}

export type Fetcher = (url: string, opts: { timeoutMs: number; maxBytes: number; signal?: AbortSignal }) => Promise<{ data: Buffer; mediaType?: string }>

export class AssetStore {
  private index: AssetIndex
  private fetching = new Map<string, Promise<MediaBytes>>()
  /** registrations under way, by source key: every caller waits until the sidecar is written */
  private registering = new Map<string, Promise<string>>()
  /** Limits of one fetch (SPEC §5.4); fields so tests can shorten them. */
  timeoutMs = ASSET_FETCH_TIMEOUT_MS
  maxBytes = ASSET_MAX_BYTES
  /** where a full wait list of arrival fetches is told, once */
  logger?: Logger
  /** the arrival fetches, keyed by asset id: `arrivals.concurrency` at once, `arrivals.maxWaiting` waiting */
  readonly arrivals = arrivalQueue(text => this.logger?.warn('assets in %s: %s', this.dir, text))
  private stopped = false
  /** who may read each asset (SPEC §22) */
  private places = new AssetPlaces(id => this.bytesPath(id))
  /** the bound on all kept bytes (SPEC §22); none: unbounded (the console's reads) */
  quota?: AssetQuota

  constructor(readonly dir: string, private fetcher?: Fetcher) {
    this.index = new AssetIndex(dir)
  }

  /** Bounds the kept bytes (attachment.maxAssetBytes, keepDays); before the first registration. */
  bound(limits: AssetLimits): void {
    this.quota = new AssetQuota(this.dir, limits, { logger: this.logger })
  }

  /** `place` received the asset (a message of its conversation shows it): it may read it from now on. */
  claim(id: string, place: string): Promise<void> {
    return this.places.claim(id, place)
  }

  /** Claims an asset for `place` only when a registration of it waits for its claim; whether it did. */
  claimNew(id: string, place: string): Promise<boolean> {
    return this.places.claimNew(id, place)
  }

  /** Whether `scope` may read the asset (one stored before owners were recorded: everyone). */
  readable(id: string, scope: ReadScope | undefined): Promise<boolean> {
    return this.places.readable(id, scope)
  }

  private sourceKey(source: string): string {
    // data: URLs can be megabytes; index them by hash.
    return source.startsWith('data:') ? 'sha256:' + createHash('sha256').update(source).digest('hex') : source
  }

  /**
   * Registers a source URL and returns its asset id (the same id for the same source). The id is
   * given only once its sidecar (and a data: URL's bytes) is written, also to concurrent callers
   * (they share one registration), so a read right after it finds the asset. `fetchNow` queues the
   * fetch of its bytes and returns without waiting for them.
   */
  async register(source: string, hints: { mediaType?: string; filename?: string } = {}, o: RegisterOptions = {}): Promise<string> {
    const key = this.sourceKey(source)
    let id = await this.index.get(key)
    if (!id) {
      let pending = this.registering.get(key)
      if (!pending) {
        pending = this.create(key, source, hints, o.owner).finally(() => this.registering.delete(key))
        this.registering.set(key, pending)
      }
      id = await pending
    } else if (o.owner) await this.claim(id, o.owner)
    if (!o.owner) this.places.awaitClaim(id)
    // a data: URL's bytes are stored with its sidecar
    if (o.fetchNow && !source.startsWith('data:')) this.fetchSoon(id)
    return id
  }

  /**
   * Keeps bytes the runtime made (a drawn picture, a spoken voice) as a new asset, without the
   * source index a fetched medium needs: nothing made twice is the same source. `made` names it
   * (the sidecar's source `made:<what>`, and errors). Throws `not_kept` when the bounded store
   * cannot take them, `write_failed` when the disk refuses; then no file of it stays.
   */
  async keep(data: Buffer, hints: { mediaType?: string; filename?: string }, o: { owner?: string; made: string }): Promise<string> {
    const id = uuidv7()
    const sidecar: AssetSidecar = {
      ...this.newSidecar(id, `made:${o.made}`, hints),
      fetchedAt: new Date().toISOString(), mediaType: mediaTypeOfBytes(data, hints.mediaType, undefined, hints.filename), byteLength: data.length,
    }
    try {
      if (!await this.admit(id, data.length)) throw new ResourceError('not_kept', NOT_KEPT)
      // nothing knows the id until it is returned: its owners, bytes and sidecar are written side by side
      await Promise.all([
        this.places.create(id, o.owner, true), atomicWrite(this.bytesPath(id), data), atomicWrite(this.sidecarPath(id), JSON.stringify(sidecar, null, 2)),
      ])
    } catch (e: any) {
      // none of its files stays
      await Promise.all([this.bytesPath(id), this.sidecarPath(id), `${this.bytesPath(id)}.owners`].map(f => rm(f, { force: true }).catch(() => {})))
      await this.quota?.release(id)
      if (e?.code === 'not_kept') throw new ResourceError('not_kept', NOT_KEPT)
      // the model reads this: the store's folder is never named
      throw fsError(e, `the ${o.made}`, 'write')
    }
    if (!o.owner) this.places.awaitClaim(id)
    return id
  }

  /** Queues the fetch of an asset's bytes (nothing when they are kept or its arrival fetch failed). */
  fetchSoon(id: string): void {
    if (!this.fetcher || this.stopped) return
    // a failed fetch has said why in its sidecar; a dropped one is fetched on first read
    this.arrivals.run(signal => this.fetchAtArrival(id, signal), id).catch(() => {})
  }

  /** Resolves when no arrival fetch waits or runs (tests, the bench). */
  idle(): Promise<void> {
    return this.arrivals.idle()
  }

  /** Waits for the asset's arrival fetch, if any; whether its bytes are kept. */
  async fetched(id: string): Promise<boolean> {
    await this.arrivals.settled(id)
    return !!(await this.sidecar(id).catch((): undefined => undefined))?.fetchedAt
  }

  /**
   * Drops the waiting arrival fetches and aborts those under way, without waiting for them (a
   * stop never hangs on a slow platform); nothing is written after they end. Left unfetched, an
   * asset is fetched on first read by the store of the next start.
   */
  stop(): void {
    this.stopped = true
    this.arrivals.stop()
  }

  private newSidecar(id: string, source: string, hints: { mediaType?: string; filename?: string }): AssetSidecar {
    return {
      id, source, createdAt: new Date().toISOString(),
      ...(hints.mediaType ? { mediaTypeHint: hints.mediaType } : {}),
      ...(hints.filename ? { filename: hints.filename } : {}),
    }
  }

  private async create(key: string, source: string, hints: { mediaType?: string; filename?: string }, owner?: string): Promise<string> {
    const id = uuidv7()
    await mkdir(this.dir, { recursive: true })
    // before anything names it: no reader ever finds it without its owners
    await this.places.create(id, owner)
    const sidecar = this.newSidecar(id, source.startsWith('data:') ? key : source, hints)
    // a data: URL the full store refused is registered all the same: its sidecar says why
    if (source.startsWith('data:')) await this.storeBytes(sidecar, decodeDataUrl(source)).catch(e => { if (e?.code !== 'not_kept') throw e })
    else await atomicWrite(this.sidecarPath(id), JSON.stringify(sidecar, null, 2))
    // known from now on: the sidecar exists
    await this.index.add(key, id)
    return id
  }

  sidecarPath(id: string): string {
    return join(this.dir, `${id}.json`)
  }

  bytesPath(id: string): string {
    return join(this.dir, id)
  }

  /** The sidecar; errors name `url` (the URL read, by default the asset's own). */
  async sidecar(id: string, url = `asset://${id}`): Promise<AssetSidecar> {
    try {
      return JSON.parse(await readFile(this.sidecarPath(id), 'utf8'))
    } catch (e) {
      throw fsError(e, url)
    }
  }

  /** The bytes, fetched once; concurrent first reads (and an arrival fetch) share one fetch. */
  bytes(id: string, signal?: AbortSignal): Promise<MediaBytes> {
    return this.shared(id, () => this.load(id, signal, false))
  }

  private shared(id: string, load: () => Promise<MediaBytes>): Promise<MediaBytes> {
    let p = this.fetching.get(id)
    if (!p) {
      p = load().finally(() => this.fetching.delete(id))
      this.fetching.set(id, p)
    }
    return p
  }

  private async fetchAtArrival(id: string, signal: AbortSignal): Promise<void> {
    const sidecar = await this.sidecar(id)
    if (sidecar.fetchedAt || sidecar.fetchFailure || sidecar.evictedAt) return
    await this.shared(id, () => this.load(id, signal, true))
  }

  /** The path of the stored bytes, fetching them first when needed; errors name `url`. */
  async ensureFile(id: string, signal?: AbortSignal, url?: string): Promise<{ path: string; sidecar: AssetSidecar }> {
    let sidecar = await this.sidecar(id, url)
    if (!sidecar.fetchedAt) {
      await this.bytes(id, signal)
      sidecar = await this.sidecar(id)
    }
    return { path: this.bytesPath(id), sidecar }
  }

  /**
   * Inside the shared fetch, so a failure recorded at arrival never overwrites bytes a later read
   * kept. A read after a failed arrival fetch tries again, except for a source too large.
   */
  private async load(id: string, signal: AbortSignal | undefined, arrival: boolean): Promise<MediaBytes> {
    const sidecar = await this.sidecar(id)
    if (sidecar.fetchedAt) {
      const data = await readFile(this.bytesPath(id))
      return { data, mediaType: sidecar.mediaType ?? 'application/octet-stream', filename: sidecar.filename }
    }
    if (!this.fetcher) throw new ResourceError('read_failed', `asset://${id}: its media could not be fetched (no HTTP client)`)
    const earlier = sidecar.fetchFailure
    if (sidecar.evictedAt) throw new ResourceError('evicted', evictedMessage(id, sidecar.evictedAt))
    if (earlier?.code === 'not_kept') throw new ResourceError('not_kept', notKeptMessage(id))
    if (earlier?.code === 'too_large') {
      throw new ResourceError('too_large', `asset://${id} was larger than ${this.maxBytes} bytes when the message arrived; it is not fetched again`)
    }
    let fetched: { data: Buffer; mediaType?: string }
    try {
      fetched = await this.fetcher(sidecar.source, { timeoutMs: this.timeoutMs, maxBytes: this.maxBytes, signal })
      if (fetched.data.length > this.maxBytes) throw new ResourceError('too_large', `larger than ${this.maxBytes} bytes`)
    } catch (e: any) {
      const now = failureOf(e, sidecar.source)
      if (arrival && !this.stopped && !signal?.aborted) {
        await atomicWrite(this.sidecarPath(id), JSON.stringify({ ...sidecar, fetchFailure: now }, null, 2)).catch(() => {})
      }
      throw new ResourceError(now.code, failureMessage(id, now, earlier, arrival, this.maxBytes))
    }
    if (this.stopped) throw new ResourceError('read_failed', `asset://${id}: not kept, its runtime stopped`)
    return this.storeBytes(sidecar, fetched)
  }

  /** Room for the bytes in the bounded store (evicting what was not shown lately), or false. */
  private admit(id: string, bytes: number): Promise<boolean> {
    return this.quota?.admit(id, bytes, victim => evictFiles(this, victim), other => this.fetching.has(other)) ?? Promise.resolve(true)
  }

  private async storeBytes(sidecar: AssetSidecar, got: { data: Buffer; mediaType?: string }): Promise<MediaBytes> {
    const mediaType = mediaTypeOfBytes(got.data, got.mediaType, sidecar.mediaTypeHint, sidecar.filename)
    const id = sidecar.id
    if (!await this.admit(id, got.data.length)) {
      const failure: FetchFailure = { at: new Date().toISOString(), code: 'not_kept', reason: 'the media store is full' }
      await atomicWrite(this.sidecarPath(id), JSON.stringify({ ...sidecar, fetchFailure: failure }, null, 2))
      throw new ResourceError('not_kept', notKeptMessage(id))
    }
    await atomicWrite(this.bytesPath(id), got.data).catch(async e => { await this.quota?.release(id); throw e })
    const { fetchFailure: _, ...rest } = sidecar
    const done: AssetSidecar = {
      ...rest, fetchedAt: new Date().toISOString(), mediaType, byteLength: got.data.length, sha256: createHash('sha256').update(got.data).digest('hex'),
    }
    await atomicWrite(this.sidecarPath(sidecar.id), JSON.stringify(done, null, 2))
    return { data: got.data, mediaType, filename: sidecar.filename }
  }
}
