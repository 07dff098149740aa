// Width and height from an image's header bytes; {} when unknown (not an image, or unreadable).
import { imageSize } from 'image-size'
import { isImageType } from './media-type'

export interface Dimensions {
  width?: number
  height?: number
}

export function imageDimensions(data: Uint8Array, mediaType?: string): Dimensions {
  if (mediaType !== undefined && !isImageType(mediaType)) return {}
  try {
    const { width, height } = imageSize(data)
    return width && height ? { width, height } : {}
  } catch {
    return {}
  }
}
