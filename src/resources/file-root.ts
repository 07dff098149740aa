// Maps decoded URL segments to a real path under a root, refusing every way out (SPEC §10).
//
// realpath is synchronous on purpose: on a local disk it takes a few µs, while the promise form
// costs a thread-pool round trip (~60 µs here) and a Continue page resolves its path every time.
// realpathSync.native is the same libc realpath that fs.promises.realpath runs.
import { realpathSync } from 'node:fs'
import { join, relative, isAbsolute, sep } from 'node:path'
import { ResourceError } from './errors'
import { fsError } from './fs-error'

function inside(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('..'))
}

/** The real path of `segments` under `root`; symlinks that resolve outside the root are forbidden. */
export async function resolveInRoot(root: string, segments: string[], url: string): Promise<string> {
  for (const s of segments) {
    if (!s || s === '.' || s === '..' || s.includes('/') || s.includes('\\') || s.includes('\0')) {
      throw new ResourceError('invalid_url', `bad path segment "${s}" in ${url}`)
    }
  }
  let realRoot: string
  try {
    realRoot = realpathSync.native(root)
  } catch {
    throw new ResourceError('not_found', `the root folder of ${url} does not exist`)
  }
  const joined = join(realRoot, ...segments)
  if (!inside(realRoot, joined)) throw new ResourceError('forbidden', `${url} leaves its root`)
  let real: string
  try {
    real = realpathSync.native(joined)
  } catch (e) {
    throw fsError(e, url)
  }
  if (!inside(realRoot, real)) throw new ResourceError('forbidden', `${url} resolves outside its root (symbolic link)`)
  return real
}
