// The read tool's raw result (SPEC §4.2) and the scheme handler contract (SPEC §5, §9).
import type { ResourceErrorCode } from './errors'
import type { TextCache } from './text/cache'

export type ReadResult =
  | { kind: 'text'; url: string; text: string; mediaType: string
      source: { url: string; offset: number; line: number; column: number }
      range: { startLine: number; endLine?: number; totalLines?: number; totalChars?: number } }
  | { kind: 'file'; url: string; mediaType: string; data: string; byteLength: number; filename?: string; width?: number; height?: number }
  | { kind: 'meta'; url: string; meta: ResourceMeta }
  | { kind: 'answer'; url: string; question: string; text: string; model: string }
  | { kind: 'error'; url: string; error: { code: ResourceErrorCode; message: string } }

export interface ResourceMeta {
  scheme: string
  mediaType?: string
  byteLength?: number
  filename?: string
  lines?: number
  width?: number
  height?: number
  createdAt?: string
  modifiedAt?: string
  fetched?: boolean
}

export interface ReadOptions {
  /** From a codemode program: the whole range up to maxBytes instead of one page. */
  whole: boolean
  maxBytes: number
  signal?: AbortSignal
  /** the runtime's text cache; a read without one uses a fresh cache */
  files?: TextCache
}

export interface MediaBytes {
  data: Buffer
  mediaType: string
  filename?: string
}

export interface SchemeHandler {
  readonly scheme: string
  read(url: string, opts: ReadOptions): Promise<ReadResult>
  /** Raw bytes of a media resource (sending, projection, vision). */
  bytes(url: string, signal?: AbortSignal): Promise<MediaBytes>
  dispose?(): void
}
