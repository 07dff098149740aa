// One mapping from file-system errors to the codes the model sees (SPEC §4.2), and the rule
// that only regular files are read (SPEC §10).
import type { Stats } from 'node:fs'
import { clip } from '../util/clip'
import { ResourceError } from './errors'

/** The file or a folder on its way is missing. */
export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

/**
 * A file-system error as a ResourceError about `subject` (a URL or "the file", clipped). `action`
 * says what failed: a failed write is `write_failed` and says so (a full disk is not a read error).
 */
export function fsError(error: unknown, subject = 'the file', action: 'read' | 'write' = 'read'): ResourceError {
  if (error instanceof ResourceError) return error
  const e = error as NodeJS.ErrnoException
  const name = clip(subject)
  const failed = action === 'write' ? 'write_failed' : 'read_failed'
  if (isMissing(e)) return new ResourceError('not_found', `${name} does not exist`)
  if (e?.code === 'EACCES' || e?.code === 'EPERM') return new ResourceError('forbidden', `${name}: permission denied`)
  if (e?.code === 'ENAMETOOLONG') return new ResourceError('invalid_url', `${name}: a name in this path is too long for the file system`)
  if (e?.code === 'EISDIR') return new ResourceError(failed, `${name} is a folder, not a file`)
  return new ResourceError(failed, `${name}: cannot be ${action === 'write' ? 'written' : 'read'} (${clip(String(e?.code ?? e?.message ?? e))})`)
}

/**
 * SPEC §10: only regular files are read and folders listed. A pipe, socket or device is refused
 * from its stat, before any open: opening a pipe waits for a writer, a device never ends.
 */
export function refuseSpecial(stat: Stats, subject = 'the file'): void {
  if (stat.isFile() || stat.isDirectory()) return
  const what = stat.isFIFO() ? 'a named pipe' : stat.isSocket() ? 'a socket' : stat.isCharacterDevice() || stat.isBlockDevice() ? 'a device' : 'a special file'
  throw new ResourceError('forbidden', `${clip(subject)} is ${what}; only regular files are read (and folders listed)`)
}
