// Maps decoded URL segments to a real path under a root, refusing every way out (SPEC §10).
//
// `sync` chooses the realpath: the synchronous one takes a few µs on a local disk, while the
// promise form costs a thread-pool round trip (~60 µs here) and a Continue page resolves its path
// every time, so the runtime home (local, asset, artifact) uses it. A host folder (workspace) may
// be a network mount where a synchronous call would stall the whole process: async there, and by
// default. realpathSync.native is the same libc realpath that fs.promises.realpath runs.
import { realpathSync } from 'node:fs'
import { realpath } from 'node:fs/promises'
import { join, relative, isAbsolute, sep } from 'node:path'
import { clip, quote } from '../util/clip'
import { ResourceError } from './errors'
import { fsError } from './fs-error'

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
  for (const s of segments) {
    if (!s || s === '.' || s === '..' || s.includes('/') || s.includes('\\') || s.includes('\0')) {
      throw new ResourceError('invalid_url', `bad path segment ${quote(s)} in ${clip(url)}`)
    }
  }
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
