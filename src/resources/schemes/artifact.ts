// artifact:// — immutable snapshots; archived JSON reads as its readable view unless view=original.
// They live in the runtime home, a local disk: synchronous metadata calls.
import { readFile } from 'node:fs/promises'
import { clip } from '../../util/clip'
import { ResourceError } from '../errors'
import { readFileTarget } from '../text/file-read'
import { parseFileUrl } from '../file-url'
import { hidden } from '../scope'
import type { ReadScope, SchemeHandler } from '../types'
import type { ArtifactStore } from './artifact-store'

function locate(url: string) {
  const u = parseFileUrl(url)
  if (u.segments.length !== 2) throw new ResourceError('invalid_url', `${clip(url)}: an artifact URL is artifact://<namespace>/<name>`)
  return { u, namespace: u.segments[0], name: u.segments[1] }
}

/** The artifact, when `scope` may read it; another conversation's is told it does not exist (SPEC §22). */
async function located(store: ArtifactStore, url: string, scope: ReadScope | undefined) {
  const at = locate(url)
  if (!await store.readable(at.namespace, at.name, scope)) throw hidden(url)
  return at
}

export function artifactScheme(store: ArtifactStore): SchemeHandler {
  return {
    scheme: 'artifact',
    async read(url, opts) {
      const { u, namespace, name } = await located(store, url, opts.scope)
      const sidecar = await store.sidecar(namespace, name, url)
      const path = store.path(namespace, name)
      const meta = { createdAt: sidecar.createdAt, ...(sidecar.width ? { width: sidecar.width, height: sidecar.height } : {}) }
      if (u.view === 'original' || !sidecar.readableView) {
        return readFileTarget(u, { path, mediaType: sidecar.mediaType, filename: name, meta, original: true, sync: true }, opts)
      }
      return readFileTarget(u, { path: path + '.view', mediaType: 'text/plain', filename: name, meta, sync: true }, opts)
    },
    async bytes(url, _signal, scope) {
      const { namespace, name } = await located(store, url, scope)
      const sidecar = await store.sidecar(namespace, name, url)
      return { data: await readFile(store.path(namespace, name)), mediaType: sidecar.mediaType, filename: name }
    },
  }
}
