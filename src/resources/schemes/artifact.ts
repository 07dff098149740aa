// artifact:// — immutable snapshots; archived JSON reads as its readable view unless view=original.
// They live in the runtime home, a local disk: synchronous metadata calls.
import { readFile } from 'node:fs/promises'
import { clip } from '../../util/clip'
import { ResourceError } from '../errors'
import { readFileTarget } from '../file-read'
import { parseFileUrl } from '../file-url'
import type { SchemeHandler } from '../types'
import type { ArtifactStore } from './artifact-store'

function locate(url: string) {
  const u = parseFileUrl(url)
  if (u.segments.length !== 2) throw new ResourceError('invalid_url', `${clip(url)}: an artifact URL is artifact://<namespace>/<name>`)
  return { u, namespace: u.segments[0], name: u.segments[1] }
}

export function artifactScheme(store: ArtifactStore): SchemeHandler {
  return {
    scheme: 'artifact',
    async read(url, opts) {
      const { u, namespace, name } = locate(url)
      const sidecar = await store.sidecar(namespace, name, url)
      const path = store.path(namespace, name)
      const meta = { createdAt: sidecar.createdAt, ...(sidecar.width ? { width: sidecar.width, height: sidecar.height } : {}) }
      if (u.view === 'original' || !sidecar.readableView) {
        return readFileTarget(u, { path, mediaType: sidecar.mediaType, filename: name, meta, original: true, sync: true }, opts)
      }
      return readFileTarget(u, { path: path + '.view', mediaType: 'text/plain', filename: name, meta, sync: true }, opts)
    },
    async bytes(url) {
      const { namespace, name } = locate(url)
      const sidecar = await store.sidecar(namespace, name, url)
      return { data: await readFile(store.path(namespace, name)), mediaType: sidecar.mediaType, filename: name }
    },
  }
}
