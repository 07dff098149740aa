// The per-runtime resource center: routes a URL to its scheme's handler (SPEC §5.1).
import { clip } from '../util/clip'
import { ResourceError } from './errors'
import { TextCache } from './text-cache'
import type { MediaBytes, ReadOptions, ReadScope, ReadResult, SchemeHandler, WriteErrorCode, WriteOptions, WriteRequest, WriteResult } from './types'

export interface ResourceCenterOptions {
  /** line indexes and kept texts shared by every file read of this center */
  files?: TextCache
}

export class ResourceCenter {
  private handlers = new Map<string, SchemeHandler>()
  /** handed to every read that brings no cache of its own */
  readonly files: TextCache

  constructor(options: ResourceCenterOptions = {}) {
    this.files = options.files ?? new TextCache()
  }

  register(handler: SchemeHandler): () => void {
    const scheme = handler.scheme.toLowerCase()
    if (this.handlers.has(scheme)) throw new Error(`scheme "${scheme}" is already registered`)
    this.handlers.set(scheme, handler)
    return () => {
      if (this.handlers.get(scheme) !== handler) return
      this.handlers.delete(scheme)
      handler.dispose?.()
    }
  }

  schemes(): string[] {
    return [...this.handlers.keys()]
  }

  handlerFor(url: string): SchemeHandler {
    const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)
    if (!m) throw new ResourceError('invalid_url', `"${clip(url)}" has no scheme; write e.g. local://notes.txt`)
    const handler = this.handlers.get(m[1].toLowerCase())
    if (!handler) throw new ResourceError('unknown_scheme', `"${clip(m[1])}" is not a registered scheme; registered: ${this.schemes().join(', ')}`)
    return handler
  }

  /** Never throws: failures become a `kind: 'error'` result. */
  async read(url: string, opts: ReadOptions): Promise<ReadResult> {
    try {
      return await this.handlerFor(url).read(url, { ...opts, files: opts.files ?? this.files })
    } catch (e) {
      return errorResult(url, e)
    }
  }

  /** Schemes whose handler can write (SPEC §13: local://, and extensions that offer it). */
  writableSchemes(): string[] {
    return [...this.handlers].filter(([, h]) => h.write).map(([s]) => s)
  }

  /** Never throws: failures become `{ ok: false, error }`; a read-only scheme is forbidden. */
  async write(url: string, request: WriteRequest, opts: WriteOptions = {}): Promise<WriteResult> {
    try {
      const handler = this.handlerFor(url)
      if (!handler.write) {
        const writable = this.writableSchemes().map(s => s + '://').join(', ') || 'none'
        throw new ResourceError('forbidden', `${handler.scheme}:// is read-only; writable: ${writable}`)
      }
      return await handler.write(url, request, opts)
    } catch (e) {
      return writeErrorResult(e)
    }
  }

  bytes(url: string, signal?: AbortSignal, scope?: ReadScope): Promise<MediaBytes> {
    return this.handlerFor(url).bytes(url, signal, scope)
  }

  dispose(): void {
    for (const h of this.handlers.values()) h.dispose?.()
    this.handlers.clear()
  }
}

/** An error message is cut to this, `…` included, whatever a handler (an extension's too) put in it. */
export const MAX_ERROR_UNITS = 1000

export function errorResult(url: string, e: unknown): ReadResult {
  const cap = (message: string) => clip(message, MAX_ERROR_UNITS - 1)
  if (e instanceof ResourceError) return { kind: 'error', url, error: { code: e.code, message: cap(e.message) } }
  return { kind: 'error', url, error: { code: 'read_failed', message: cap((e as Error)?.message ?? String(e)) } }
}

const WRITE_CODES: readonly string[] = ['forbidden', 'invalid_url', 'not_found', 'no_match', 'ambiguous_match', 'too_large', 'write_failed']
/** read's codes for a URL it cannot use; a write URL has no selector or view, so they are invalid_url */
const URL_CODES: readonly string[] = ['unknown_scheme', 'invalid_selector', 'unsupported_view']

/** A write failure as the write tool returns it; a code outside SPEC §13's list becomes invalid_url (a URL) or write_failed. */
export function writeErrorResult(e: unknown): WriteResult & { ok: false } {
  const cap = (message: string) => clip(message, MAX_ERROR_UNITS - 1)
  if (!(e instanceof ResourceError)) return { ok: false, error: { code: 'write_failed' as WriteErrorCode, message: cap((e as Error)?.message ?? String(e)) } }
  const code = (WRITE_CODES.includes(e.code) ? e.code : URL_CODES.includes(e.code) ? 'invalid_url' : 'write_failed') as WriteErrorCode
  return { ok: false, error: { code, message: cap(e.message), ...(e.matches !== undefined ? { matches: e.matches } : {}) } }
}
