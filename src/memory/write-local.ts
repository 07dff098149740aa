// One write of local:// (SPEC §13): the URL resolved as read resolves it, the quotas checked,
// then the change made through a temporary file and a rename, so a reader sees the old file or
// the new one, never half of one. The caller serialises writes and keeps LocalFiles current.
//
// Decisions where the SPEC is silent:
// - A write URL is a plain file URL: selectors, a query, a trailing '/' or a folder are invalid_url.
// - remove and moveTo act on files; moveTo never replaces an existing file (forbidden: the note
//   there would be lost), creates the folders on its way and stays within local://.
// - append and edit decode the file as read does; edit refuses a binary file (forbidden), append
//   adds bytes after the old ones, whatever they are.
// - remove, content and edit keep the old bytes in the trash first (ctx.keep, SPEC §22); a file
//   they cannot keep is not changed.
import { existsSync, readFileSync, renameSync, mkdirSync, rmSync, statSync, unlinkSync, type Stats } from 'node:fs'
import { dirname } from 'node:path'
import type { MemoryConfig } from './config'
import { ResourceError } from '../resources/errors'
import { resolveWritable, type WritablePath } from '../resources/file-root'
import { formatFileUrl, parseFileUrl, schemeOf, type FileUrl } from '../resources/file-url'
import { fsError, refuseSpecial } from '../resources/fs-error'
import { countLines } from '../resources/paging'
import { looksBinary } from '../resources/text'
import { decode } from '../resources/utf8'
import type { WriteRequest, WriteResult } from '../resources/types'
import { atomicWrite } from '../util/atomic-write'
import { clip, quote } from '../util/clip'
import { changesText, nextText, type TextChange } from './edit-text'
import type { LocalFiles } from './local-files'
import { checkQuota } from './quota'

export interface WriteContext {
  files: LocalFiles
  limits: Pick<MemoryConfig, 'maxFileBytes' | 'maxTotalBytes' | 'maxFiles'>
  /** a file changed or vanished: kept texts of it are stale */
  changed(path: string, rel: string, text?: string): void
  /** what the writing chat may touch, and what its writes become (local-privacy.ts) */
  rules?: WriteRules
  /** Keeps a file's bytes before a write loses them (SPEC §22, trash/); resolves to what undoes it, should the write then fail. */
  keep?(t: KeptFile, why: 'removed' | 'overwritten', data?: Buffer): Promise<() => Promise<void>>
  /** Throws for a path under local/ that write may not change (the sticker library, SPEC §22). */
  readOnly?(rel: string, url: string): void
}

/** A file whose bytes a write is about to lose. */
export interface KeptFile {
  path: string
  rel: string
  url: string
  size: number
}

/** What a write does to a file: write (content, append), edit, remove, or move it (from) or onto it (to). */
export type WriteRole = 'write' | 'edit' | 'remove' | 'from' | 'to'

export interface WriteRules {
  /** Before a change: throws for a file this write may not touch; true: treat it as missing (another chat's). */
  check(t: { rel: string; url: string; exists: boolean }, role: WriteRole): boolean
  /** after the change, before the result returns; `folders`: those the write created, outermost first */
  wrote(rel: string, created: boolean, folders: string[]): Promise<void>
  moved(from: string, to: string, folders: string[]): Promise<void>
  removed(rel: string): Promise<void>
}

interface Target {
  u: FileUrl
  url: string
  where: WritablePath
  rel: string
  stat?: Stats
}

/** Throws ResourceError; the caller turns it into `{ ok: false }`. */
export async function writeLocal(ctx: WriteContext, rawUrl: string, request: WriteRequest): Promise<WriteResult & { ok: true }> {
  const t = locate(ctx, rawUrl)
  const role: WriteRole = 'edit' in request ? 'edit' : changesText(request) ? 'write' : 'remove' in request ? 'remove' : 'from'
  // another chat's file is missing to this one: the same answers as a file that is not there
  if (ctx.rules?.check({ rel: t.rel, url: t.url, exists: !!t.stat }, role)) {
    if (changesText(request)) nextText(undefined, request, t.url)
    throw new ResourceError('not_found', `${t.url} does not exist`)
  }
  if (changesText(request)) return writeText(ctx, t, request)
  if (!t.stat) throw new ResourceError('not_found', `${t.url} does not exist`)
  if ('remove' in request) {
    const unkeep = await ctx.keep?.(kept(t), 'removed')
    try {
      unlinkSync(t.where.path)
    } catch (e) {
      await unkeep?.()
      throw fsError(e, t.url, 'write')
    }
    forget(ctx, t)
    await ctx.rules?.removed(t.rel)
    return { ok: true, url: t.url, bytes: 0, lines: 0 }
  }
  return move(ctx, t, request.moveTo)
}

function locate(ctx: WriteContext, rawUrl: string): Target {
  const u = parseFileUrl(rawUrl)
  // the canonical URL, as the memory index writes it (local:///a.md is local://a.md)
  const url = formatFileUrl({ ...u, rooted: false, selectors: [], view: undefined, offset: undefined })
  if (u.scheme !== 'local') throw new ResourceError('forbidden', `${clip(rawUrl)}: this writer writes local:// only`)
  if (u.selectors.length || u.view || u.offset !== undefined || rawUrl.includes('?')) {
    throw new ResourceError('invalid_url', `${clip(rawUrl)}: write takes a plain file URL, without line selectors or a query`)
  }
  if (!u.segments.length || rawUrl.endsWith('/')) {
    throw new ResourceError('invalid_url', `${clip(rawUrl)} names a folder; write to a file inside it, e.g. local://memory/notes.md`)
  }
  const where = resolveWritable(ctx.files.root, u.segments, rawUrl)
  const rel = relPath(ctx, where.path, rawUrl)
  ctx.readOnly?.(rel, url)
  let stat: Stats | undefined
  if (where.exists) {
    stat = statSync(where.path)
    if (stat.isDirectory()) throw new ResourceError('invalid_url', `${url} is a folder; write to a file inside it`)
    refuseSpecial(stat, url)
  }
  return { u, url, where, rel, stat }
}

/** The path relative to local/ with '/' separators (the root is a real path, as `path` is). */
function relPath(ctx: WriteContext, path: string, url: string): string {
  const rel = ctx.files.relOf(path)
  if (!rel || rel.startsWith('..')) throw new ResourceError('forbidden', `${clip(url)} is not inside local://`)
  return rel
}

async function writeText(ctx: WriteContext, t: Target, request: TextChange): Promise<WriteResult & { ok: true }> {
  // the tally learns the file's size from this stat, in case the owner changed it
  if (t.stat) ctx.files.setFile(t.rel, t.stat)
  else ctx.files.dropFile(t.rel)
  const quota = (after: number) => checkQuota(ctx.limits, {
    url: t.url, before: t.stat?.size ?? 0, after, creates: !t.stat, totalBytes: ctx.files.bytes, files: ctx.files.count,
  })
  // an owner's file far over maxFileBytes is never read whole only to be refused
  if ('append' in request) quota((t.stat?.size ?? 0) + Buffer.byteLength(request.append))
  if ('edit' in request && t.stat && t.stat.size > ctx.limits.maxFileBytes) {
    const over = `${t.url} is ${t.stat.size} bytes, over the limit of ${ctx.limits.maxFileBytes} per file (maxFileBytes)`
    throw new ResourceError('too_large', `${over}: replace it whole with content, or remove it`)
  }
  const old = t.stat ? readOld(t) : undefined
  let data: Buffer
  let text: string
  if ('append' in request && old) {
    // bytes after the old bytes, exactly as they were
    data = Buffer.concat([old, Buffer.from(request.append)])
    text = decode(data, 0, data.length).text
  } else {
    if ('edit' in request && old && looksBinary(old)) {
      throw new ResourceError('forbidden', `${t.url} is binary; edit changes text files (replace it whole with content)`)
    }
    text = nextText(old && decode(old, 0, old.length).text, request, t.url)
    data = Buffer.from(text)
  }
  quota(data.length)
  // the old bytes are gone after this write (append keeps them; the same bytes again lose nothing)
  const loses = old && !('append' in request) && !old.equals(data)
  const unkeep = loses ? await ctx.keep?.(kept(t), 'overwritten', old) : undefined
  const created = firstMissingFolder(ctx, t.where.path)
  try {
    await atomicWrite(t.where.path, data)
  } catch (e) {
    undo(created)
    await unkeep?.()
    throw fsError(e, t.url, 'write')
  }
  const st = statSync(t.where.path)
  ctx.files.setFile(t.rel, st, text)
  ctx.files.touchFolders(t.rel)
  ctx.changed(t.where.path, t.rel, text)
  await ctx.rules?.wrote(t.rel, !t.stat, foldersOf(ctx, created, t.where.path))
  return { ok: true, url: t.url, bytes: data.length, lines: countLines(text) }
}

/** The outermost folder a write to `path` is about to create, if any (a refused write removes it again). */
function firstMissingFolder(ctx: WriteContext, path: string): string | undefined {
  let missing: string | undefined
  for (let dir = dirname(path); dir.length > ctx.files.root.length && !existsSync(dir); dir = dirname(dir)) missing = dir
  return missing
}

/** The folders from `created` (the outermost one a write made) down to `path`'s own, as paths under local/. */
function foldersOf(ctx: WriteContext, created: string | undefined, path: string): string[] {
  const out: string[] = []
  if (!created) return out
  for (let dir = dirname(path); dir.length >= created.length; dir = dirname(dir)) out.unshift(ctx.files.relOf(dir))
  return out
}

function undo(created: string | undefined): void {
  if (created) rmSync(created, { recursive: true, force: true })
}

function readOld(t: Target): Buffer {
  try {
    return readFileSync(t.where.path)
  } catch (e) {
    throw fsError(e, t.url)
  }
}

function kept(t: Target): KeptFile {
  return { path: t.where.path, rel: t.rel, url: t.url, size: t.stat?.size ?? 0 }
}

function forget(ctx: WriteContext, t: Target): void {
  ctx.files.dropFile(t.rel)
  ctx.files.touchFolders(t.rel)
  ctx.changed(t.where.path, t.rel)
}

async function move(ctx: WriteContext, from: Target, to: string): Promise<WriteResult & { ok: true }> {
  if (typeof to !== 'string' || schemeOf(to) !== 'local') throw new ResourceError('forbidden', `moveTo ${quote(to)}: files move within local:// only`)
  const dest = locate(ctx, to)
  ctx.rules?.check({ rel: dest.rel, url: dest.url, exists: dest.where.exists }, 'to')
  const size = from.stat!.size
  if (dest.where.exists) {
    if (dest.where.path === from.where.path) return { ok: true, url: dest.url, bytes: size, lines: linesOf(from) }
    throw new ResourceError('forbidden', `${dest.url} already exists; remove it first or choose another name`)
  }
  const created = firstMissingFolder(ctx, dest.where.path)
  try {
    mkdirSync(dirname(dest.where.path), { recursive: true })
    renameSync(from.where.path, dest.where.path)
  } catch (e) {
    undo(created)
    throw fsError(e, dest.url, 'write')
  }
  forget(ctx, from)
  const st = statSync(dest.where.path)
  ctx.files.setFile(dest.rel, st)
  ctx.files.touchFolders(dest.rel)
  ctx.changed(dest.where.path, dest.rel)
  await ctx.rules?.moved(from.rel, dest.rel, foldersOf(ctx, created, dest.where.path))
  return { ok: true, url: dest.url, bytes: st.size, lines: linesOf(dest) }
}

function linesOf(t: Target): number {
  const data = readOld(t)
  return looksBinary(data) ? 0 : countLines(decode(data, 0, data.length).text)
}
