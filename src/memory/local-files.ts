// What the runtime knows of its local/ folder without asking the disk (SPEC §13): every regular
// file's size (the quotas count all of local/, the owner's files included), every folder's mtime
// (so a turn can notice the owner's changes with one stat per folder), and the first line of each
// file under memory/ (the index). Built by one walk, then kept current by the writes themselves.
//
// Decisions where the SPEC is silent:
// - Symbolic links are neither counted nor followed: their targets are not bytes of local/ (or are
//   counted already where they live), and a walk that follows links could loop or leave the root.
// - A folder whose mtime changed is listed again; a file edited in place by the owner (its folder
//   unchanged) is noticed at the next write of that file, a restart, or a pinned file's own stat.
import { readdirSync, statSync, openSync, readSync, closeSync, type Stats } from 'node:fs'
import { join } from 'node:path'
import { decode } from '../resources/text/utf8'
import { looksBinary } from '../resources/text'
import { clip } from '../util/clip'

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
  const buffer = Buffer.allocUnsafe(Math.min(HEAD_BYTES, size))
  const fd = openSync(path, 'r')
  try {
    const n = readSync(fd, buffer, 0, buffer.length, 0)
    const head = buffer.subarray(0, n)
    return looksBinary(head) ? '(binary)' : firstLineOf(decode(head, 0, head.length).text)
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
    this.scanDir('')
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
      if (st?.isDirectory()) this.scanDir(rel)
      else this.dropDir(rel)
    }
    return changed
  }

  /** Records a file this runtime just wrote (its first line known from the text, no read). */
  setFile(rel: string, st: Stats, text?: string): void {
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

  private scanDir(rel: string): void {
    const path = this.abs(rel)
    const st = statSync(path, { throwIfNoEntry: false })
    if (!st?.isDirectory()) return this.dropDir(rel)
    this.dirs.set(rel, st.mtimeMs)
    const seen = new Set<string>()
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name
      seen.add(child)
      if (entry.isDirectory()) {
        if (!this.dirs.has(child)) this.scanDir(child)
      } else if (entry.isFile()) {
        const fst = statSync(join(path, entry.name), { throwIfNoEntry: false })
        const known = this.files.get(child)
        if (!fst) this.dropFile(child)
        else if (!known || known.size !== fst.size || known.mtimeMs !== fst.mtimeMs) this.setFile(child, fst)
      }
    }
    // what this folder no longer holds
    for (const file of [...this.files.keys()]) if (parentOf(file) === rel && !seen.has(file)) this.dropFile(file)
    for (const dir of [...this.dirs.keys()]) if (dir && parentOf(dir) === rel && !seen.has(dir)) this.dropDir(dir)
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
