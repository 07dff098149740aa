// What the runtime knows of its local/ folder without asking the disk (SPEC §13): every regular
// file's size (the quotas count all of local/, the owner's files included), every folder's mtime
// (so a turn can notice the owner's changes with one stat per folder), and the first line of each
// file under memory/ (the index). Built by the one walk (walk.ts, synchronous), then kept current
// by the writes themselves.
//
// Decisions where the SPEC is silent:
// - Symbolic links are neither counted nor followed (the walk's rule).
// - A folder whose mtime changed is listed again; a file edited in place by the owner (its folder
//   unchanged) is noticed at the next write of that file, a restart, or a pinned file's own stat.
import { statSync, openSync, readSync, closeSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { decode } from '../resources/utf8'
import { looksBinary } from '../resources/text'
import { clip } from '../util/clip'
import { walkSync } from './walk'

export interface FileInfo {
  size: number
  mtimeMs: number
}

/** Bytes read for a first line; the index shows at most FIRST_LINE_UNITS of it. */
const HEAD_BYTES = 1024
export const FIRST_LINE_UNITS = 100

/** The first line of a text as the index shows it: trimmed, clipped; '' for an empty file. */
export function firstLineOf(text: string): string {
  const nl = text.indexOf('\n')
  return clip((nl < 0 ? text : text.slice(0, nl)).trim(), FIRST_LINE_UNITS)
}

function headLine(path: string, size: number): string {
  if (!size) return ''
  const head = readHead(path, Math.min(HEAD_BYTES, size))
  return looksBinary(head) ? '(binary)' : firstLineOf(decode(head, 0, head.length).text)
}

/** The first `n` bytes of a file (fewer when it is shorter). */
export function readHead(path: string, n: number): Buffer {
  const buffer = Buffer.allocUnsafe(n)
  if (!n) return buffer
  const fd = openSync(path, 'r')
  try {
    return buffer.subarray(0, readSync(fd, buffer, 0, n, 0))
  } finally {
    closeSync(fd)
  }
}

/** '/'-separated paths relative to local/; '' is local/ itself. */
export class LocalFiles {
  readonly files = new Map<string, FileInfo>()
  /** first lines of the files under `indexed/` */
  readonly heads = new Map<string, string>()
  private dirs = new Map<string, number>()
  bytes = 0

  constructor(readonly root: string, readonly indexed = 'memory') {}

  get count(): number {
    return this.files.size
  }

  /** Lists everything under local/ again. */
  scanAll(): void {
    for (const rel of [...this.files.keys()]) this.dropFile(rel)
    this.dirs.clear()
    this.list('')
  }

  /**
   * Lists again each folder whose mtime changed (or that vanished): files added, removed or
   * replaced by the owner (most editors save through a rename). True when anything changed.
   */
  refreshChangedFolders(): boolean {
    let changed = false
    for (const [rel, mtimeMs] of [...this.dirs]) {
      if (!this.dirs.has(rel)) continue   // dropped with a vanished parent
      const st = statSync(this.abs(rel), { throwIfNoEntry: false })
      if (st?.isDirectory() && st.mtimeMs === mtimeMs) continue
      changed = true
      this.list(rel)
    }
    return changed
  }

  /** Records a file this runtime just wrote (its first line known from the text, no read). */
  setFile(rel: string, st: FileInfo, text?: string): void {
    const known = this.files.get(rel)
    if (text === undefined && known?.size === st.size && known.mtimeMs === st.mtimeMs) return
    this.dropFile(rel)
    this.files.set(rel, { size: st.size, mtimeMs: st.mtimeMs })
    this.bytes += st.size
    if (this.isIndexed(rel)) this.heads.set(rel, text !== undefined ? firstLineOf(text) : headLine(this.abs(rel), st.size))
  }

  dropFile(rel: string): void {
    const had = this.files.get(rel)
    if (!had) return
    this.bytes -= had.size
    this.files.delete(rel)
    this.heads.delete(rel)
  }

  /** After a write created or changed entries of a folder: its new mtime, and the folders on the way. */
  touchFolders(rel: string): void {
    for (let dir = parentOf(rel); ; dir = parentOf(dir)) {
      const st = statSync(this.abs(dir), { throwIfNoEntry: false })
      if (st?.isDirectory()) this.dirs.set(dir, st.mtimeMs)
      if (!dir) return
    }
  }

  isIndexed(rel: string): boolean {
    return rel.startsWith(this.indexed + '/')
  }

  abs(rel: string): string {
    return rel ? join(this.root, ...rel.split('/')) : this.root
  }

  /** The inverse of abs (a path inside the root; one outside starts with '..'). */
  relOf(path: string): string {
    return relative(this.root, path).split(sep).join('/')
  }

  /**
   * Lists `rel` again, and the folders under it that are new: what it holds now is recorded, what
   * it no longer holds is dropped; folders known already are checked by their own mtime.
   */
  private list(rel: string): void {
    // every file: the quotas count them all
    const walked = walkSync(this.root, { from: rel, folders: true, limit: Infinity, enter: dir => !this.dirs.has(dir) })
    if (!walked.folders.length) return this.dropDir(rel)
    const listed = new Set<string>()
    const folders = new Set(walked.passed)
    for (const dir of walked.folders) {
      this.dirs.set(dir.rel, dir.mtimeMs)
      listed.add(dir.rel)
      folders.add(dir.rel)
    }
    const files = new Set<string>()
    for (const f of walked.files) {
      files.add(f.rel)
      const known = this.files.get(f.rel)
      if (!known || known.size !== f.size || known.mtimeMs !== f.mtimeMs) this.setFile(f.rel, f)
    }
    // what the listed folders no longer hold (a name may have turned from a file into a folder)
    for (const file of [...this.files.keys()]) if (listed.has(parentOf(file)) && !files.has(file)) this.dropFile(file)
    for (const dir of [...this.dirs.keys()]) if (dir && listed.has(parentOf(dir)) && !folders.has(dir)) this.dropDir(dir)
  }

  private dropDir(rel: string): void {
    const prefix = rel ? rel + '/' : ''
    for (const file of [...this.files.keys()]) if (file.startsWith(prefix)) this.dropFile(file)
    for (const dir of [...this.dirs.keys()]) if (dir === rel || dir.startsWith(prefix)) this.dirs.delete(dir)
  }
}

export function parentOf(rel: string): string {
  const i = rel.lastIndexOf('/')
  return i < 0 ? '' : rel.slice(0, i)
}
