// Each media node is stored once: an unchanged asset:// or artifact:// keeps its URL; anything
// else (a local:// or workspace:// file that may change, bytes a tool made) becomes an artifact.
import { createHash } from 'node:crypto'
import type { ArtifactStore } from '../resources/schemes/artifact-store'
import type { AssetStore } from '../resources/schemes/asset-store'
import { imageDimensions } from '../resources/image-dimensions'
import { parseFileUrl, type FileUrl } from '../resources/file-url'
import { UUIDV7 } from '../util/uuidv7'
import type { AttachmentItem } from './attachments'
import type { MediaNode } from '../contract/tool'

export interface MediaStores {
  artifacts: ArtifactStore
  assets: AssetStore
}

export type StoredMedia = Omit<AttachmentItem, 'lifetime'>

/** The stored URL of an unchanged asset or artifact the node came from. */
async function reusable(url: string | undefined, sha256: string, stores: MediaStores): Promise<string | undefined> {
  if (!url) return undefined
  let u: FileUrl
  try {
    u = parseFileUrl(url)
  } catch {
    return undefined
  }
  if (u.selectors.length) return undefined
  const [a, b] = u.segments
  if (u.scheme === 'asset' && u.segments.length === 1 && UUIDV7.test(a)) {
    const s = await stores.assets.sidecar(a).catch((): undefined => undefined)
    return s?.sha256 === sha256 ? `asset://${a}` : undefined
  }
  if (u.scheme === 'artifact' && u.segments.length === 2) {
    const s = await stores.artifacts.sidecar(a, b).catch((): undefined => undefined)
    return s?.sha256 === sha256 ? `artifact://${a}/${b}` : undefined
  }
  return undefined
}

/** `owner`: the turn's place (resources/scope.ts): a new artifact is readable only there (SPEC §22). */
export async function storeMedia(node: MediaNode, o: { namespace: string; callId?: string; stores: MediaStores; owner?: string }): Promise<StoredMedia> {
  const data = Buffer.from(node.data, 'base64')
  const sha256 = createHash('sha256').update(data).digest('hex')
  const dims = node.width && node.height ? { width: node.width, height: node.height } : imageDimensions(data, node.mediaType)
  const url = await reusable(node.url, sha256, o.stores) ?? await o.stores.artifacts.write({
    namespace: o.namespace, data, sha256, mediaType: node.mediaType, tool: o.namespace, callId: o.callId, ...dims, ...o.owner ? { owner: o.owner } : {},
  })
  return { url, mediaType: node.mediaType, byteLength: data.length, ...dims }
}
