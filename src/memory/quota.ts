// The quotas of local/ (SPEC §13), checked before anything is written: inclusive, counting all of
// local/ with the owner's files. A write that grows nothing is never refused, so a folder the
// owner filled past a quota can still be tidied (edits that shrink, removals, renames).
import { ResourceError } from '../resources/errors'
import type { MemoryConfig } from './config'

export interface QuotaChange {
  url: string
  /** size of the file before (0 when it is new) and after */
  before: number
  after: number
  /** the write creates a file */
  creates: boolean
  /** bytes and files of local/ before the write */
  totalBytes: number
  files: number
}

export function checkQuota(limits: Pick<MemoryConfig, 'maxFileBytes' | 'maxTotalBytes' | 'maxFiles'>, c: QuotaChange): void {
  const grows = c.after > c.before
  const hint = 'shorten it, or remove notes you no longer need'
  if (grows && c.after > limits.maxFileBytes) {
    throw new ResourceError('too_large', `${c.url} would be ${c.after} bytes; the limit is ${limits.maxFileBytes} bytes per file (maxFileBytes): ${hint}`)
  }
  const total = c.totalBytes - c.before + c.after
  if (grows && total > limits.maxTotalBytes) {
    throw new ResourceError('too_large', `local:// would hold ${total} bytes; the limit is ${limits.maxTotalBytes} bytes in all (maxTotalBytes): ${hint}`)
  }
  if (c.creates && c.files + 1 > limits.maxFiles) {
    const advice = 'add to an existing note, or remove one first'
    throw new ResourceError('too_large', `local:// holds ${c.files} files; the limit is ${limits.maxFiles} (maxFiles): ${advice}`)
  }
}
