// Maps decoded URL segments to a real path under a root, refusing every way out (SPEC §10).
//
// `sync` chooses the realpath: the synchronous one takes a few µs on a local disk, while the
// promise form costs a thread-pool round trip (~60 µs here) and a Continue page resolves its path
// every time, so the runtime home (local, asset, artifact) uses it. A host folder (workspace) may
// be a network mount where a synchronous call would stall the whole process: async there, and by
// default. realpathSync.native is the same libc realpath that fs.promises.realpath runs.
import { lstatSync, realpathSync, statSync } from 'node:fs'
import { realpath } from 'node:fs/promises'
import { join, relative, isAbsolute, resolve, sep } from 'node:path'
import { clip, quote } from '../util/clip'
import { ResourceError } from './errors'
import { fsError, isMissing } from './fs-error'
import { BoundedSet } from '../util/bounded-set'

export interface RootOptions {
  /** synchronous metadata calls, for a local disk only; default false */
  sync?: boolean
}

/** Only `..` as a whole segment leaves the root: `..notes.txt` is an ordinary name. */
function inside(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (!isAbsolute(rel) && !rel.split(sep).includes('..'))
}

async function realPathOf(path: string, sync: boolean): Promise<string> {
  return sync ? realpathSync.native(path) : realpath(path)
}

/** The real path of `segments` under `root`; symlinks that resolve outside the root are forbidden. */
export async function resolveInRoot(root: string, segments: string[], url: string, options: RootOptions = {}): Promise<string> {
  const sync = options.sync ?? false
  checkSegments(segments, url)
  const quick = sync ? realUnderRoot(root, segments) : undefined
  if (quick) return quick
  let realRoot: string
  try {
    realRoot = await realPathOf(root, sync)
  } catch {
    throw new ResourceError('not_found', `the root folder of ${clip(url)} does not exist`)
  }
  const joined = join(realRoot, ...segments)
  if (!inside(realRoot, joined)) throw new ResourceError('forbidden', `${clip(url)} leaves its root`)
  let real: string
  try {
    real = await realPathOf(joined, sync)
  } catch (e) {
    throw fsError(e, url)
  }
  if (!inside(realRoot, real)) throw new ResourceError('forbidden', `${clip(url)} resolves outside its root (symbolic link)`)
  return real
}

const normalRoots = new BoundedSet<string>(64)

/**
 * One realpath instead of two, for the common case: when the real path lies under `root` as
 * written (absolute, normalized), root is a prefix of a real path, so its own realpath is itself
 * and the full check would pass. Anything else (a missing file, a root behind a link) goes the
 * full way, with its errors.
 */
function realUnderRoot(root: string, segments: string[]): string | undefined {
  if (!normalRoots.has(root)) {
    if (root !== resolve(root)) return undefined
    normalRoots.add(root)
  }
  let real: string
  try {
    real = realpathSync.native(join(root, ...segments))
  } catch {
    return undefined
  }
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep) ? real : undefined
}

function checkSegments(segments: string[], url: string): void {
  for (const s of segments) {
    if (!s || s === '.' || s === '..' || s.includes('/') || s.includes('\\') || s.includes('\0')) {
      throw new ResourceError('invalid_url', `bad path segment ${quote(s)} in ${clip(url)}`)
    }
  }
}

/** Where a write lands (SPEC §13); a missing target has `exists: false` and its folders may be missing too. */
export interface WritablePath {
  path: string
  exists: boolean
}

/**
 * resolveInRoot for a write, on a local disk (synchronous calls): an existing target is resolved
 * exactly as a read resolves it; a missing one through its deepest existing folder, which must
 * lie inside the root. A name that exists only as a dangling symbolic link is forbidden, so a
 * write never goes through a link to create a file elsewhere.
 */
export function resolveWritable(root: string, segments: string[], url: string): WritablePath {
  checkSegments(segments, url)
  let realRoot: string
  try {
    realRoot = realpathSync.native(root)
  } catch {
    throw new ResourceError('not_found', `the root folder of ${clip(url)} does not exist`)
  }
  const joined = join(realRoot, ...segments)
  if (!inside(realRoot, joined)) throw new ResourceError('forbidden', `${clip(url)} leaves its root`)
  const outside = () => new ResourceError('forbidden', `${clip(url)} resolves outside its root (symbolic link)`)
  try {
    const real = realpathSync.native(joined)
    if (!inside(realRoot, real)) throw outside()
    return { path: real, exists: true }
  } catch (e) {
    if (e instanceof ResourceError || !isMissing(e)) throw fsError(e, url)
  }
  for (let i = segments.length - 1; i >= 0; i--) {
    let real: string
    try {
      real = realpathSync.native(join(realRoot, ...segments.slice(0, i)))
    } catch (e) {
      if (isMissing(e)) continue
      throw fsError(e, url)
    }
    if (!inside(realRoot, real)) throw outside()
    if (!statSync(real).isDirectory()) {
      throw new ResourceError('invalid_url', `${clip(url)}: ${quote(segments.slice(0, i).join('/'))} is a file, not a folder`)
    }
    const next = join(real, segments[i])
    if (lstatSync(next, { throwIfNoEntry: false })) {
      throw new ResourceError('forbidden', `${clip(url)} is a symbolic link that leads nowhere; only real files are written`)
    }
    return { path: join(real, ...segments.slice(i)), exists: false }
  }
  throw new ResourceError('not_found', `the root folder of ${clip(url)} does not exist`)
}
