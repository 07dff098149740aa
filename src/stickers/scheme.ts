// sticker://<name> — an approved sticker's image, for read (a vision-capable model sees it, or asks
// attachment.visionModel about it with ?question=) and for sending; wherever the library's folder
// is (the runtime home or a folder the profile's runtimes share). Read-only: the owner edits the
// folder, the console edits labels and states.
import { basename } from 'node:path'
import { clip } from '../util/clip'
import { ResourceError } from '../resources/errors'
import { readFileTarget } from '../resources/text/file-read'
import { encodeSegment, parseFileUrl } from '../resources/file-url'
import { fileBytes } from '../resources/schemes/local'
import type { SchemeHandler } from '../resources/types'
import type { StickerShelf } from './types'

export const STICKER_SCHEME = 'sticker'

export const stickerUrl = (name: string) => `${STICKER_SCHEME}://${encodeSegment(name)}`

export function stickerScheme(shelf: Pick<StickerShelf, 'byName'>): SchemeHandler {
  const find = (url: string) => {
    const u = parseFileUrl(url)
    const name = u.segments.join('/')
    const s = u.segments.length === 1 ? shelf.byName(name) : undefined
    if (!s) throw new ResourceError('not_found', `${clip(url)}: no sticker is named ${JSON.stringify(name)}`)
    return { u, s }
  }
  return {
    scheme: STICKER_SCHEME,
    async read(url, opts) {
      const { u, s } = find(url)
      return readFileTarget(u, { path: s.path, mediaType: s.mediaType, filename: basename(s.path) }, opts)
    },
    async bytes(url) {
      const { s } = find(url)
      return { ...await fileBytes(s.path, url), mediaType: s.mediaType }
    },
  }
}
