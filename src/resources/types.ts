// The read tool's raw result (SPEC §4.2) and the scheme handler contract (SPEC §5, §9).
import type { ResourceErrorCode } from './errors'
import type { TextCache } from './text-cache'

export type ReadResult =
  | { kind: 'text'; url: string; text: string; mediaType: string
      source: { url: string; offset: number; line: number; column: number }
      range: { startLine: number; endLine?: number; totalLines?: number; totalChars?: number } }
  | { kind: 'file'; url: string; mediaType: string; data: string; byteLength: number; filename?: string; width?: number; height?: number }
  | { kind: 'meta'; url: string; meta: ResourceMeta }
  | { kind: 'answer'; url: string; question: string; text: string; model: string }
  | { kind: 'error'; url: string; error: { code: ResourceErrorCode; message: string; name?: string } }

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
  /** the conversation whose turn reads (history:// shows only what it may see, SPEC §17) */
  conversation?: string
  /** who reads (SPEC §22): absent, the runtime itself (the console, projection), which reads everything */
  scope?: ReadScope
  /** ToolCallContext.paid: a scheme asks it before a paid request (a web search); throws past a program's limit (SPEC §22) */
  paid?: (what: string) => void
}

/**
 * Who reads or writes, for what one chat learns (SPEC §22): the conversation of the turn and the chat
 * it is in (contract/tool.ts TurnChat). A chat absent: no single chat, nothing private is shown.
 */
export interface ReadScope {
  conversation?: string
  chat?: { readonly channel: string; readonly direct: boolean; readonly user?: string }
}

export interface MediaBytes {
  data: Buffer
  mediaType: string
  filename?: string
}

/** One change the write tool asks for (SPEC §13): exactly one of the five forms. */
export type WriteRequest =
  | { content: string }
  | { append: string }
  | { edit: { find: string; replace: string } }
  | { remove: true }
  | { moveTo: string }

/** SPEC §13's codes, and write_failed for a disk that refused (the write changed nothing). */
export type WriteErrorCode = 'forbidden' | 'invalid_url' | 'not_found' | 'no_match' | 'ambiguous_match' | 'too_large' | 'write_failed'

/** `bytes` and `lines` describe the file after the write (0 after remove); after moveTo `url` is the new URL. */
export type WriteResult =
  | { ok: true; url: string; bytes: number; lines: number }
  | { ok: false; error: { code: WriteErrorCode; message: string; matches?: number } }

export interface WriteOptions {
  signal?: AbortSignal
  /** the turn that writes (a person's private section, SPEC §21; a private chat's files, SPEC §22) */
  scope?: ReadScope
}

export interface SchemeHandler {
  readonly scheme: string
  read(url: string, opts: ReadOptions): Promise<ReadResult>
  /** Raw bytes of a media resource (sending, projection, vision); `scope` as in ReadOptions. */
  bytes(url: string, signal?: AbortSignal, scope?: ReadScope): Promise<MediaBytes>
  /** A writable scheme (local://, or an extension's own); without it the scheme is read-only. */
  write?(url: string, request: WriteRequest, opts: WriteOptions): Promise<WriteResult>
  dispose?(): void
}
