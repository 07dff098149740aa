// The read path every file scheme shares (SPEC §4.2, §5.2): meta view, folder listing, binary
// files as `file` results, text paged from its source (direct) or whole (codemode).
//
// One TextFile per read: a stat, then the 8 KiB sniff and the page share one descriptor (or the
// kept text of a small file, which needs no open at all). A target on a local disk asks for
// synchronous metadata calls (a few µs each; each async one a thread-pool round trip, which
// dominated paging); any other target gets only async calls (SPEC §10: one slow read never
// delays the others). Only regular files are opened; pipes, sockets and devices are forbidden.
import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { clip } from '../../util/clip'
import { ResourceError } from '../errors'
import { composeSelectors, encodeSegment, formatFileUrl, withOffset, type FileUrl } from '../file-url'
import { fsError } from '../fs-error'
import { imageDimensions } from '../image-dimensions'
import { isImageType, isTextualType, mediaTypeOfName, sniffMediaType } from '../media-type'
import { readFilePage, readFileRangeText, TextCache, TextFile } from './index'
import { pageString, sliceLineRange } from '../paging'
import type { ReadOptions, ReadResult, ResourceMeta } from '../types'
import { wholeRange } from '../whole-range'

/** Past this a direct read of a binary file is refused (a page of text has its own budget). */
export const MAX_FILE_RESULT_BYTES = 20 * 1024 * 1024

export interface FileTarget {
  path: string
  /** Known media type (sidecars); otherwise sniffed and guessed from the name. */
  mediaType?: string
  filename?: string
  /** Extra metadata the scheme knows (created time, fetched). */
  meta?: Partial<ResourceMeta>
  /** The scheme serves view=original from this target (artifacts). */
  original?: boolean
  /**
   * Synchronous metadata calls: only for a local disk (the runtime home). Default false, so a
   * host folder or network mount never stalls the process.
   */
  sync?: boolean
  /** a folder's listing leaves out the entries this says (another chat's files, SPEC §22) */
  hide?: (name: string) => boolean
}

/** Reads a file-scheme URL from its target; without `opts.files` a fresh text cache serves the read. */
export async function readFileTarget(u: FileUrl, target: FileTarget, opts: ReadOptions): Promise<ReadResult> {
  let file: TextFile
  try {
    file = await TextFile.open(target.path, opts.files ?? new TextCache(), { subject: u.raw, sync: target.sync ?? false })
  } catch (e) {
    throw fsError(e, u.raw)
  }
  try {
    return await readOpened(u, target, opts, file)
  } finally {
    file.close()
  }
}

async function readOpened(u: FileUrl, target: FileTarget, opts: ReadOptions, file: TextFile): Promise<ReadResult> {
  const st = file.stat
  const url = formatFileUrl({ ...u, offset: undefined })
  if (u.view === 'original' && !target.original) throw new ResourceError('unsupported_view', `view=original applies to artifact:// only`)
  if (st.isDirectory()) return readFolder(u, target, opts, url)
  const sample = await file.head()
  const mediaType = target.mediaType ?? sniffMediaType(sample) ?? mediaTypeOfName(target.filename ?? target.path)
  const binary = mediaType ? !isTextualType(mediaType) : await file.looksBinary()
  const filename = target.filename ?? basename(target.path)
  if (u.view === 'meta') {
    const meta: ResourceMeta = {
      scheme: u.scheme, mediaType: mediaType ?? (binary ? 'application/octet-stream' : 'text/plain'), byteLength: st.size, filename,
      modifiedAt: st.mtime.toISOString(), ...(isImageType(mediaType) ? imageDimensions(sample) : {}), ...target.meta,
    }
    return { kind: 'meta', url, meta }
  }
  if (binary) {
    if (u.selectors.length || u.offset) {
      throw new ResourceError('not_text', `${clip(u.raw)}: line selectors and offsets apply to text, and this is ${mediaType ?? 'binary'}`)
    }
    const cap = opts.whole ? opts.maxBytes : MAX_FILE_RESULT_BYTES
    if (st.size > cap) throw new ResourceError('too_large', `${clip(u.raw)} is ${st.size} bytes; the limit here is ${cap}`)
    const data = await readFile(target.path)
    return {
      kind: 'file', url, mediaType: mediaType ?? 'application/octet-stream', data: data.toString('base64'), byteLength: data.length,
      filename, ...(isImageType(mediaType) ? imageDimensions(data) : {}),
    }
  }
  const textType = mediaType ?? 'text/plain'
  const range = composeSelectors(u.selectors)
  if (opts.whole) {
    const all = await readFileRangeText({ path: target.path, cache: file.cache, range, maxBytes: opts.maxBytes, file })
    const offset = u.offset ?? 0
    const { line, column } = position(all, offset, range?.start ?? 1)
    return {
      kind: 'text', url, text: all.slice(offset), mediaType: textType,
      source: { url, offset, line, column },
      range: wholeRange(all, range?.start ?? 1, range?.end),
    }
  }
  const page = await readFilePage({ path: target.path, cache: file.cache, range, offset: u.offset ?? 0, continueUrl: n => withOffset(u, n), file })
  return {
    kind: 'text', url, text: page.body, mediaType: textType,
    source: { url, ...page.source }, range: page.range,
    ...(page.nextOffset !== undefined ? { continueUrl: withOffset(u, page.nextOffset) } : {}),
  } as ReadResult
}

/** 1-based line and UTF-16 column of `offset` inside `text` whose first line is `firstLine`. */
function position(text: string, offset: number, firstLine: number): { line: number; column: number } {
  let line = firstLine
  let lineStart = 0
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++
    lineStart = i + 1
  }
  return { line, column: offset - lineStart + 1 }
}

async function readFolder(u: FileUrl, target: FileTarget, opts: ReadOptions, url: string): Promise<ReadResult> {
  const entries = (await readdir(target.path, { withFileTypes: true })).filter(e => !target.hide?.(e.name))
  entries.sort((a, b) => a.name.localeCompare(b.name))
  if (u.view === 'meta') {
    const meta: ResourceMeta = {
      scheme: u.scheme, mediaType: 'inode/directory', lines: entries.length, filename: basename(target.path), ...target.meta,
    }
    return { kind: 'meta', url, meta }
  }
  const lines = await Promise.all(entries.map(async e => {
    // written as in a URL, so folder URL + name reads the entry ('%', ':', '?' and controls escaped)
    const name = encodeSegment(e.name)
    if (e.isDirectory()) return `${name}/`
    const size = await stat(join(target.path, e.name)).then(s => s.size, (): number | undefined => undefined)
    return size === undefined ? name : `${name}\t${size} bytes`
  }))
  const listing = lines.length ? lines.join('\n') + '\n' : ''
  const range = composeSelectors(u.selectors)
  const text = sliceLineRange(listing, range)
  const offset = u.offset ?? 0
  const page: { body: string; nextOffset?: number } = opts.whole ? { body: text.slice(offset) } : pageString(text, offset, n => withOffset(u, n))
  const { line, column } = position(text, offset, range?.start ?? 1)
  return {
    kind: 'text', url, text: page.body, mediaType: 'text/plain',
    source: { url, offset, line, column },
    range: { startLine: range?.start ?? 1, endLine: Math.min(range?.end ?? lines.length, lines.length), totalLines: lines.length },
    ...(page.nextOffset !== undefined ? { continueUrl: withOffset(u, page.nextOffset) } : {}),
  } as ReadResult
}
