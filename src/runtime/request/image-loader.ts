// Image bytes for projection. Assets and artifacts never change, so they are cached by URL; a
// dead source is remembered for a while so it is not fetched for every request of every turn.
import { LRUCache } from 'lru-cache'
import { imageDimensions } from '../../resources/image-dimensions'
import { schemeOf } from '../../resources/file-url'
import type { ResourceCenter } from '../../resources/center'
import type { LoadedImage } from './projection'

/** images of the runtime's own stores never change: they are kept */
const STORED = new Set(['asset', 'artifact'])

export class ImageLoader {
  private images = new LRUCache<string, LoadedImage>({ maxSize: 32 * 1024 * 1024, sizeCalculation: i => i.data.length || 1 })
  private failures = new LRUCache<string, string>({ max: 1000, ttl: 10 * 60_000 })

  constructor(private resources: ResourceCenter) {}

  async load(url: string): Promise<LoadedImage> {
    const hit = this.images.get(url)
    if (hit) return hit
    const failed = this.failures.get(url)
    if (failed) throw new Error(failed)
    let media
    try {
      media = await this.resources.bytes(url)
    } catch (e: any) {
      this.failures.set(url, e?.message ?? String(e))
      throw e
    }
    const image = { data: media.data, mediaType: media.mediaType, ...imageDimensions(media.data) }
    if (STORED.has(schemeOf(url) ?? '')) this.images.set(url, image)
    return image
  }
}
