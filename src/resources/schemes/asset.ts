// asset:// — media people sent (SPEC §5.4). ?view=meta never fetches the bytes. The bytes live in
// the runtime home, a local disk: synchronous metadata calls.
import { clip } from '../../util/clip'
import { ResourceError } from '../errors'
import { readFileTarget, type FileTarget } from '../text/file-read'
import { formatFileUrl, parseFileUrl } from '../file-url'
import { hidden } from '../scope'
import type { ReadScope, SchemeHandler } from '../types'
import { UUIDV7 } from '../../util/uuidv7'
import type { AssetStore } from './asset-store'

function assetId(url: string) {
  const u = parseFileUrl(url)
  const id = u.segments.join('/')
  if (u.segments.length !== 1 || !UUIDV7.test(id)) throw new ResourceError('invalid_url', `${clip(url)}: an asset URL is asset://<uuidv7>`)
  return { u, id }
}

/** The asset's id, when `scope` may read it; another conversation's is told it does not exist (SPEC §22). */
async function readable(store: AssetStore, url: string, scope: ReadScope | undefined) {
  const at = assetId(url)
  if (!await store.readable(at.id, scope)) throw hidden(url)
  return at
}

export function assetScheme(store: AssetStore): SchemeHandler {
  return {
    scheme: 'asset',
    async read(url, opts) {
      const { u, id } = await readable(store, url, opts.scope)
      if (u.view === 'meta') {
        const s = await store.sidecar(id, url)
        return {
          kind: 'meta', url: formatFileUrl({ ...u, offset: undefined }),
          meta: {
            scheme: 'asset', mediaType: s.mediaType ?? s.mediaTypeHint, byteLength: s.byteLength, filename: s.filename,
            createdAt: s.createdAt, fetched: !!s.fetchedAt,
          },
        }
      }
      const { path, sidecar } = await store.ensureFile(id, opts.signal, url)
      const target: FileTarget = {
        path,
        mediaType: sidecar.mediaType,
        filename: sidecar.filename,
        meta: { createdAt: sidecar.createdAt, fetched: true },
        sync: true,
      }
      return readFileTarget(u, target, opts)
    },
    async bytes(url, signal, scope) {
      return store.bytes((await readable(store, url, scope)).id, signal)
    },
    // the runtime's stop: arrival fetches under way are aborted, not waited for
    dispose() {
      store.stop()
    },
  }
}
