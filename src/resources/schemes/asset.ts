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

/** Marks the asset shown: the bound's eviction leaves it for attachment.keepDays (asset-quota.ts). */
function shown(store: AssetStore, id: string): void {
  store.quota?.shown(id).catch(() => {})
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
            createdAt: s.createdAt, fetched: !!s.fetchedAt, ...(s.evictedAt ? { evicted: s.evictedAt } : {}),
          },
        }
      }
      const { path, sidecar } = await store.ensureFile(id, opts.signal, url)
      shown(store, id)
      const target: FileTarget = {
        path,
        mediaType: sidecar.mediaType,
        filename: sidecar.filename,
        meta: { createdAt: sidecar.createdAt, fetched: true },
        sync: true,
      }
      return readFileTarget(u, target, opts)
    },
    // read, attached to a request or sent: shown (kept attachment.keepDays from now)
    async bytes(url, signal, scope) {
      const { id } = await readable(store, url, scope)
      const got = await store.bytes(id, signal)
      shown(store, id)
      return got
    },
    // the runtime's stop: arrival fetches under way are aborted, not waited for
    dispose() {
      store.stop()
    },
  }
}
