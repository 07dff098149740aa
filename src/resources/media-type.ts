// Media types from file extensions and magic bytes.
import { extname } from 'node:path'

const BY_EXT: Record<string, string> = {
  '.txt': 'text/plain', '.md': 'text/markdown', '.json': 'application/json', '.jsonl': 'application/jsonl',
  '.csv': 'text/csv', '.log': 'text/plain', '.html': 'text/html', '.htm': 'text/html', '.xml': 'application/xml',
  '.yml': 'text/yaml', '.yaml': 'text/yaml', '.js': 'text/javascript', '.ts': 'text/typescript', '.css': 'text/css',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp',
  '.bmp': 'image/bmp', '.svg': 'image/svg+xml', '.ico': 'image/x-icon',
  '.mp3': 'audio/mpeg', '.wav': 'audio/wav', '.ogg': 'audio/ogg', '.m4a': 'audio/mp4', '.silk': 'audio/silk', '.amr': 'audio/amr',
  '.mp4': 'video/mp4', '.webm': 'video/webm', '.mov': 'video/quicktime',
  '.pdf': 'application/pdf', '.zip': 'application/zip', '.gz': 'application/gzip',
}

const EXT_BY_TYPE: Record<string, string> = {
  'text/plain': '.txt', 'application/json': '.json', 'image/png': '.png', 'image/jpeg': '.jpg', 'image/gif': '.gif',
  'image/webp': '.webp', 'audio/mpeg': '.mp3', 'audio/wav': '.wav', 'audio/ogg': '.ogg', 'video/mp4': '.mp4',
  'application/pdf': '.pdf', 'text/markdown': '.md', 'text/html': '.html', 'text/csv': '.csv',
}

export function mediaTypeOfName(name: string): string | undefined {
  return BY_EXT[extname(name).toLowerCase()]
}

export function extensionOf(mediaType: string): string {
  return EXT_BY_TYPE[mediaType.split(';')[0].trim().toLowerCase()] ?? '.bin'
}

/** Recognises common binary formats by their first bytes. */
export function sniffMediaType(b: Uint8Array): string | undefined {
  const at = (i: number, ...bytes: number[]) => bytes.every((x, k) => b[i + k] === x)
  if (at(0, 0x89, 0x50, 0x4e, 0x47)) return 'image/png'
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg'
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return 'image/gif'
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp'
  if (at(0, 0x42, 0x4d)) return 'image/bmp'
  if (at(0, 0x25, 0x50, 0x44, 0x46)) return 'application/pdf'
  if (at(0, 0x49, 0x44, 0x33) || at(0, 0xff, 0xfb)) return 'audio/mpeg'
  if (at(0, 0x4f, 0x67, 0x67, 0x53)) return 'audio/ogg'
  if (at(4, 0x66, 0x74, 0x79, 0x70)) return 'video/mp4'
  if (at(0, 0x50, 0x4b, 0x03, 0x04)) return 'application/zip'
  return undefined
}

// Text a person or the model can read as it is; anything else is binary unless sniffed as text.
const TEXTUAL = /^(text\/|application\/(json|jsonl|x-ndjson|xml|xhtml\+xml|javascript|ecmascript|yaml|x-yaml|toml|sql|graphql|ld\+json|rss\+xml|atom\+xml)\b)|^application\/[\w.+-]+\+(json|xml)\b/i

export function isTextualType(mediaType: string | undefined): boolean {
  return !!mediaType && TEXTUAL.test(mediaType.trim())
}

export function isImageType(mediaType: string | undefined): boolean {
  return !!mediaType && mediaType.startsWith('image/')
}
