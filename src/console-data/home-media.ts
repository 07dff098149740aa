// Images of a runtime that is not running, for the console page's thumbnails: `asset://` and
// `artifact://` read from its home through the same schemes a runtime registers. Read-only: the
// stores get no HTTP client, so an asset whose bytes were never fetched stays unfetched.
import { join } from 'node:path'
import { ResourceCenter } from '../resources/center'
import { artifactScheme } from '../resources/schemes/artifact'
import { ArtifactStore } from '../resources/schemes/artifact-store'
import { assetScheme } from '../resources/schemes/asset'
import { AssetStore } from '../resources/schemes/asset-store'
import type { MediaBytes } from '../resources/types'

export async function homeMedia(home: string, url: string): Promise<MediaBytes | undefined> {
  const center = new ResourceCenter()
  center.register(assetScheme(new AssetStore(join(home, 'assets'))))
  center.register(artifactScheme(new ArtifactStore(join(home, 'artifacts'))))
  try {
    return await center.bytes(url)
  } catch {
    return undefined
  } finally {
    center.dispose()
  }
}
