// Each media node is stored once: an unchanged asset:// or artifact:// keeps its URL; anything
// else (a local:// or workspace:// file that may change, bytes a tool made) becomes an artifact.
import { createHash } from 'node:crypto'
import type { ArtifactStore } from '../resources/schemes/artifact-store'
import type { AssetStore } from '../resources/schemes/asset-store'
import { imageDimensions } from '../resources/image-dimensions'
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
  const base = url.split('?')[0]
  const asset = /^asset:\/\/([^/:?]+)$/i.exec(base)
  if (asset && UUIDV7.test(asset[1])) {
    const s = await stores.assets.sidecar(asset[1]).catch((): undefined => undefined)
    return s?.sha256 === sha256 ? `asset://${asset[1]}` : undefined
  }
  const artifact = /^artifact:\/\/([^/:?]+)\/([^/:?]+)$/i.exec(base)
  if (artifact) {
    const s = await stores.artifacts.sidecar(artifact[1], artifact[2]).catch((): undefined => undefined)
    return s?.sha256 === sha256 ? `artifact://${artifact[1]}/${artifact[2]}` : undefined
  }
  return undefined
}

export async function storeMedia(node: MediaNode, o: { namespace: string; callId?: string; stores: MediaStores }): Promise<StoredMedia> {
  const data = Buffer.from(node.data, 'base64')
  const sha256 = createHash('sha256').update(data).digest('hex')
  const dims = node.width && node.height ? { width: node.width, height: node.height } : imageDimensions(data, node.mediaType)
  const url = await reusable(node.url, sha256, o.stores) ?? await o.stores.artifacts.write({
    namespace: o.namespace, data, sha256, mediaType: node.mediaType, tool: o.namespace, callId: o.callId, ...dims,
  })
  return { url, mediaType: node.mediaType, byteLength: data.length, ...dims }
}
