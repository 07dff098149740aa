// Putting a trash entry back into local:// (SPEC §22): at its own path, or when that path is taken,
// beside it (`core.restored.md`, `core.restored-2.md`, …), through a temporary file and a rename.
// The owner's act (the console): memory's quotas do not apply. The caller serialises it with the
// writes and keeps its caches current.
//
// The marker goes before the whole suffix, so a person's private section restored beside stays a
// private section (`mia.restored.private.md`), shown to no chat until the owner merges it.
import { existsSync, lstatSync, realpathSync } from 'node:fs'
import { copyFile, mkdir, rename, rm } from 'node:fs/promises'
import { dirname, relative, sep } from 'node:path'
import { ResourceError } from '../../resources/errors'
import { resolveWritable } from '../../resources/file-root'
import type { TrashEntry } from './entry'

/** tries of a free name beside the path */
const MAX_BESIDE = 100

export interface Restored {
  /** where it went, under local/ */
  rel: string
  /** its absolute path */
  path: string
  /** the folders the restore created, outermost first, under local/ */
  folders: string[]
}

/** `a/core.md` → `a/core.restored.md`, `a/core.restored-2.md`; `x.private.md` keeps `.private.md` last. */
export function besideRel(rel: string, n: number): string {
  const slash = rel.lastIndexOf('/')
  const name = rel.slice(slash + 1)
  const suffix = /\.private\.md$/i.exec(name)?.[0] ?? /\.[^.]+$/.exec(name)?.[0] ?? ''
  const stem = name.slice(0, name.length - suffix.length) || name
  const marker = n > 1 ? `.restored-${n}` : '.restored'
  return `${rel.slice(0, slash + 1)}${stem}${marker}${stem === name ? '' : suffix}`
}

/** Copies the entry's bytes from `blob` into `local` (the runtime home's local/, made when missing); throws a ResourceError when it cannot. */
export async function restoreInto(local: string, entry: TrashEntry, blob: string): Promise<Restored> {
  const url = `local://${entry.rel}`
  await mkdir(local, { recursive: true })
  const root = realpathSync.native(local)
  let rel = entry.rel
  let where = resolveWritable(root, rel.split('/'), url)
  for (let n = 1; where.exists || lstatSync(where.path, { throwIfNoEntry: false }); n++) {
    if (n > MAX_BESIDE) throw new ResourceError('forbidden', `${url}: no free name beside it`)
    rel = besideRel(entry.rel, n)
    where = resolveWritable(root, rel.split('/'), url)
  }
  const folders: string[] = []
  for (let dir = dirname(where.path); dir.length > root.length && !existsSync(dir); dir = dirname(dir)) folders.unshift(dir)
  const tmp = `${where.path}.restore.tmp`
  try {
    await mkdir(dirname(where.path), { recursive: true })
    await copyFile(blob, tmp)
    await rename(tmp, where.path)
  } catch (e: any) {
    await rm(tmp, { force: true })
    if (folders.length) await rm(folders[0], { recursive: true, force: true })
    throw new ResourceError('write_failed', `${url}: cannot be restored (${e?.code ?? e?.message ?? e})`)
  }
  return { rel, path: where.path, folders: folders.map(f => relative(root, f).split(sep).join('/')) }
}
