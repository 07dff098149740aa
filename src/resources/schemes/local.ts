// local:// — the runtime home's local/ folder (a local disk: synchronous metadata calls).
import { readFile, stat } from 'node:fs/promises'
import { realpathSync } from 'node:fs'
import { basename, relative, sep } from 'node:path'
import { clip } from '../../util/clip'
import { ResourceError } from '../errors'
import { readFileTarget, MAX_FILE_RESULT_BYTES } from '../text/file-read'
import { resolveInRoot } from '../file-root'
import { fsError, refuseSpecial } from '../fs-error'
import { parseFileUrl } from '../file-url'
import { mediaTypeOfName, sniffMediaType } from '../media-type'
import type { MediaBytes, ReadScope, SchemeHandler } from '../types'

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

/**
 * What a reader may see of local:// (SPEC §21, §22; memory/local-privacy.ts). Each throws or hides
 * only for a scoped reader; unscoped (the runtime itself, the console) sees everything.
 */
export interface LocalReadGuard {
  /** before the path is resolved: a URL refused whether its file exists or not (a private section) */
  url(url: string, scope: ReadScope | undefined): void
  /** the file or folder `url` resolved to (`rel`: its path under local/, '/'-separated) */
  file(rel: string, url: string, scope: ReadScope | undefined): void
  /** a folder listing leaves the entry at `rel` out */
  hides(rel: string, scope: ReadScope | undefined): boolean
}

/** `write`: the runtime's memory writer (SPEC §13); without it local:// is read-only. */
export function localScheme(root: string, write?: SchemeHandler['write'], guard?: LocalReadGuard): SchemeHandler {
  let realRoot: string | undefined
  /** the resolved path, checked by the guard for this reader; and its path under local/ */
  const resolve = async (url: string, scope: ReadScope | undefined) => {
    guard?.url(url, scope)
    const u = parseFileUrl(url)
    const path = await resolveInRoot(root, u.segments, url, { sync: true })
    realRoot ??= realpathSync.native(root)
    const rel = relative(realRoot, path).split(sep).join('/')
    guard?.file(rel, url, scope)
    return { u, path, rel }
  }
  return {
    scheme: 'local',
    ...(write ? { write } : {}),
    async read(url, opts) {
      const { u, path, rel } = await resolve(url, opts.scope)
      const hide = guard && opts.scope ? (name: string) => guard.hides(rel ? `${rel}/${name}` : name, opts.scope) : undefined
      return readFileTarget(u, { path, sync: true, ...hide ? { hide } : {} }, opts)
    },
    async bytes(url, _signal, scope) {
      return fileBytes((await resolve(url, scope)).path, url)
    },
  }
}
