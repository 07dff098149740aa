// One mapping from file-system errors to the codes the model sees (SPEC §4.2).
import { ResourceError } from './errors'

/** The file or a folder on its way is missing. */
export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

/** A file-system error as a ResourceError about `subject` (a URL or "the file"). */
export function fsError(error: unknown, subject = 'the file'): ResourceError {
  if (error instanceof ResourceError) return error
  const e = error as NodeJS.ErrnoException
  if (isMissing(e)) return new ResourceError('not_found', `${subject} does not exist`)
  if (e?.code === 'EACCES' || e?.code === 'EPERM') return new ResourceError('forbidden', `${subject}: permission denied`)
  if (e?.code === 'EISDIR') return new ResourceError('read_failed', `${subject} is a folder, not a file`)
  return new ResourceError('read_failed', `${subject}: cannot be read (${e?.code ?? e?.message ?? e})`)
}
