// local:// — the runtime home's local/ folder (a local disk: synchronous metadata calls).
import { readFile, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { clip } from '../../util/clip'
import { ResourceError } from '../errors'
import { readFileTarget, MAX_FILE_RESULT_BYTES } from '../file-read'
import { resolveInRoot } from '../file-root'
import { fsError, refuseSpecial } from '../fs-error'
import { parseFileUrl } from '../file-url'
import { mediaTypeOfName, sniffMediaType } from '../media-type'
import type { MediaBytes, SchemeHandler } from '../types'

/** Bytes of a file under a root, for sending and snapshots; async calls only. */
export async function fileBytes(path: string, url: string): Promise<MediaBytes> {
  try {
    const st = await stat(path)
    if (st.isDirectory()) throw new ResourceError('not_found', `${clip(url)} is a folder`)
    refuseSpecial(st, url)
    if (st.size > MAX_FILE_RESULT_BYTES) throw new ResourceError('too_large', `${clip(url)} is ${st.size} bytes; the limit is ${MAX_FILE_RESULT_BYTES}`)
    const data = await readFile(path)
    return { data, mediaType: sniffMediaType(data) ?? mediaTypeOfName(path) ?? 'application/octet-stream', filename: basename(path) }
  } catch (e) {
    throw fsError(e, url)
  }
}

/** Throws for a URL the conversation may not read; bytes (sends) ask without a conversation. */
export type LocalReadGuard = (url: string, conversation: string | undefined) => void

/** `write`: the runtime's memory writer (SPEC §13); without it local:// is read-only. */
export function localScheme(root: string, write?: SchemeHandler['write'], guard?: LocalReadGuard): SchemeHandler {
  return {
    scheme: 'local',
    ...(write ? { write } : {}),
    async read(url, opts) {
      guard?.(url, opts.conversation)
      const u = parseFileUrl(url)
      return readFileTarget(u, { path: await resolveInRoot(root, u.segments, url, { sync: true }), sync: true }, opts)
    },
    async bytes(url) {
      guard?.(url, undefined)
      const u = parseFileUrl(url)
      return fileBytes(await resolveInRoot(root, u.segments, url, { sync: true }), url)
    },
  }
}
