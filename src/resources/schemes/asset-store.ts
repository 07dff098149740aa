// Media people sent (SPEC §5.4): one id per distinct source per runtime, the sidecar written at
// once, the bytes fetched on first use through the host's HTTP client and kept on disk.
import { createHash } from 'node:crypto'
import { appendFile, mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { atomicWrite } from '../../util/atomic-write'
import { clip } from '../../util/clip'
import { uuidv7 } from '../../util/uuidv7'
import { ResourceError } from '../errors'
import { fsError } from '../fs-error'
import { sniffMediaType, mediaTypeOfName } from '../media-type'
import type { MediaBytes } from '../types'

export const ASSET_MAX_BYTES = 20 * 1024 * 1024
export const ASSET_FETCH_TIMEOUT_MS = 30_000

export interface AssetSidecar {
  id: string
  source: string
  mediaTypeHint?: string
  filename?: string
  createdAt: string
  fetchedAt?: string
  mediaType?: string
  byteLength?: number
  sha256?: string
}

export type Fetcher = (url: string, opts: { timeoutMs: number; maxBytes: number; signal?: AbortSignal }) => Promise<{ data: Buffer; mediaType?: string }>

export class AssetStore {
  private index?: Promise<Map<string, string>>
  private fetching = new Map<string, Promise<MediaBytes>>()
  /** registrations under way, by source key: every caller waits until the sidecar is written */
  private registering = new Map<string, Promise<string>>()
  /** Limits of one fetch (SPEC §5.4); fields so tests can shorten them. */
  timeoutMs = ASSET_FETCH_TIMEOUT_MS
  maxBytes = ASSET_MAX_BYTES

  constructor(readonly dir: string, private fetcher?: Fetcher) {}

  private sourceKey(source: string): string {
    // data: URLs can be megabytes; index them by hash.
    return source.startsWith('data:') ? 'sha256:' + createHash('sha256').update(source).digest('hex') : source
  }

  private loadIndex(): Promise<Map<string, string>> {
    this.index ??= (async () => {
      const map = new Map<string, string>()
      const text = await readFile(join(this.dir, 'index.jsonl'), 'utf8').catch(() => '')
      for (const line of text.split('\n')) {
        try {
          const { key, id } = JSON.parse(line)
          map.set(key, id)
        } catch {}
      }
      return map
    })()
    return this.index
  }

  /**
   * Registers a source URL and returns its asset id (the same id for the same source). The id is
   * given only once its sidecar (and a data: URL's bytes) is written, also to concurrent callers
   * (they share one registration), so a read right after it finds the asset.
   */
  async register(source: string, hints: { mediaType?: string; filename?: string } = {}): Promise<string> {
    const index = await this.loadIndex()
    const key = this.sourceKey(source)
    const known = index.get(key)
    if (known) return known
    let pending = this.registering.get(key)
    if (!pending) {
      pending = this.create(index, key, source, hints).finally(() => this.registering.delete(key))
      this.registering.set(key, pending)
    }
    return pending
  }

  private async create(index: Map<string, string>, key: string, source: string, hints: { mediaType?: string; filename?: string }): Promise<string> {
    const id = uuidv7()
    const sidecar: AssetSidecar = {
      id, source: source.startsWith('data:') ? key : source, createdAt: new Date().toISOString(),
      ...(hints.mediaType ? { mediaTypeHint: hints.mediaType } : {}),
      ...(hints.filename ? { filename: hints.filename } : {}),
    }
    await mkdir(this.dir, { recursive: true })
    if (source.startsWith('data:')) await this.storeBytes(sidecar, decodeDataUrl(source))
    else await atomicWrite(this.sidecarPath(id), JSON.stringify(sidecar, null, 2))
    // known from now on: the sidecar exists
    index.set(key, id)
    await appendFile(join(this.dir, 'index.jsonl'), JSON.stringify({ key, id }) + '\n')
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

  /** The bytes, fetched once; concurrent first reads share one fetch. */
  bytes(id: string, signal?: AbortSignal): Promise<MediaBytes> {
    let p = this.fetching.get(id)
    if (!p) {
      p = this.load(id, signal).finally(() => this.fetching.delete(id))
      this.fetching.set(id, p)
    }
    return p
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

  private async load(id: string, signal?: AbortSignal): Promise<MediaBytes> {
    const sidecar = await this.sidecar(id)
    if (sidecar.fetchedAt) {
      const data = await readFile(this.bytesPath(id))
      return { data, mediaType: sidecar.mediaType ?? 'application/octet-stream', filename: sidecar.filename }
    }
    if (!this.fetcher) throw new ResourceError('read_failed', `asset://${id}: its media could not be fetched (no HTTP client)`)
    let fetched: { data: Buffer; mediaType?: string }
    try {
      fetched = await this.fetcher(sidecar.source, { timeoutMs: this.timeoutMs, maxBytes: this.maxBytes, signal })
    } catch (e: any) {
      // the platform's link never reaches the model (SPEC §3), not even inside an error
      const why = clip(withoutSource(String(e?.message ?? e), sidecar.source))
      throw new ResourceError(e instanceof ResourceError ? e.code : 'read_failed', `asset://${id}: its media could not be fetched: ${why}`)
    }
    if (fetched.data.length > this.maxBytes) throw new ResourceError('too_large', `asset://${id} is larger than ${this.maxBytes} bytes`)
    return this.storeBytes(sidecar, fetched)
  }

  private async storeBytes(sidecar: AssetSidecar, got: { data: Buffer; mediaType?: string }): Promise<MediaBytes> {
    const mediaType = sniffMediaType(got.data) ?? clean(got.mediaType) ?? sidecar.mediaTypeHint
      ?? (sidecar.filename && mediaTypeOfName(sidecar.filename)) ?? 'application/octet-stream'
    await atomicWrite(this.bytesPath(sidecar.id), got.data)
    const done: AssetSidecar = {
      ...sidecar, fetchedAt: new Date().toISOString(), mediaType, byteLength: got.data.length,
      sha256: createHash('sha256').update(got.data).digest('hex'),
    }
    await atomicWrite(this.sidecarPath(sidecar.id), JSON.stringify(done, null, 2))
    return { data: got.data, mediaType, filename: sidecar.filename }
  }
}

function clean(mediaType?: string): string | undefined {
  const t = mediaType?.split(';')[0].trim().toLowerCase()
  return t && t !== 'application/octet-stream' ? t : undefined
}

export function decodeDataUrl(url: string): { data: Buffer; mediaType?: string } {
  const m = /^data:([^;,]*)((?:;[^;,]*)*?)(;base64)?,(.*)$/s.exec(url)
  if (!m) throw new ResourceError('invalid_url', 'malformed data: URL')
  const data = m[3] ? Buffer.from(m[4], 'base64') : Buffer.from(decodeURIComponent(m[4]), 'utf8')
  return { data, mediaType: m[1] || undefined }
}

/** An error message with the media's source, its host and any other URL in it left out. */
export function withoutSource(message: string, source: string): string {
  let out = message.split(source).join('(its source)')
  let host = ''
  try { host = new URL(source).host } catch {}
  if (host) out = out.split(host).join('(its host)')
  return out.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '(a URL)')
}
