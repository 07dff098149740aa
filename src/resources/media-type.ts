// Media types from file extensions and magic bytes. A sniff needs a plausible header, not two
// magic bytes: text such as "BMW is a car" or "ID3 tags explained" stays text.
import { extname } from 'node:path'
import { voiceFormat } from './audio-format'

const BY_EXT: Record<string, string> = {
  '.txt': 'text/plain', '.md': 'text/markdown', '.json': 'application/json', '.jsonl': 'application/jsonl',
  '.csv': 'text/csv', '.log': 'text/plain', '.html': 'text/html', '.htm': 'text/html', '.xml': 'application/xml',
  '.yml': 'text/yaml', '.yaml': 'text/yaml', '.js': 'text/javascript', '.ts': 'text/typescript', '.css': 'text/css',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp',
  '.bmp': 'image/bmp', '.svg': 'image/svg+xml', '.ico': 'image/x-icon', '.avif': 'image/avif', '.heic': 'image/heic',
  '.mp3': 'audio/mpeg', '.wav': 'audio/wav', '.ogg': 'audio/ogg', '.m4a': 'audio/mp4', '.flac': 'audio/flac',
  '.silk': 'audio/silk', '.slk': 'audio/silk', '.amr': 'audio/amr',
  '.mp4': 'video/mp4', '.webm': 'video/webm', '.mov': 'video/quicktime',
  '.pdf': 'application/pdf', '.zip': 'application/zip', '.gz': 'application/gzip',
}

const EXT_BY_TYPE: Record<string, string> = {
  'text/plain': '.txt', 'application/json': '.json', 'image/png': '.png', 'image/jpeg': '.jpg', 'image/gif': '.gif',
  'image/webp': '.webp', 'audio/mpeg': '.mp3', 'audio/wav': '.wav', 'audio/ogg': '.ogg', 'video/mp4': '.mp4',
  'audio/silk': '.silk', 'audio/amr': '.amr', 'audio/flac': '.flac',
  'application/pdf': '.pdf', 'text/markdown': '.md', 'text/html': '.html', 'text/csv': '.csv',
  // the types an ISO BMFF brand sniffs as (they were all video/mp4 before)
  'image/avif': '.avif', 'image/heic': '.heic', 'audio/mp4': '.m4a', 'video/quicktime': '.mov',
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
  if (isBmp(b)) return 'image/bmp'
  if (at(0, 0x25, 0x50, 0x44, 0x46)) return 'application/pdf'
  if (isId3(b) || isMpegFrame(b)) return 'audio/mpeg'
  const voice = voiceFormat(b)
  if (voice) return voice.mediaType
  const brand = isoBrand(b)
  if (brand) return brand
  if (at(0, 0x50, 0x4b, 0x03, 0x04)) return 'application/zip'
  return undefined
}

const u32le = (b: Uint8Array, i: number) => (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0
const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n))

// BITMAPCOREHEADER, OS/2 2.x (16, 64), BITMAPINFOHEADER and its V2-V5 successors
const DIB_HEADER_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124])

/** 'BM', a known DIB header size at 14 (text has printable bytes there), a file size that holds both headers. */
function isBmp(b: Uint8Array): boolean {
  if (b.length < 18 || b[0] !== 0x42 || b[1] !== 0x4d) return false
  const dib = u32le(b, 14)
  const size = u32le(b, 2)
  return DIB_HEADER_SIZES.has(dib) && (size === 0 || size >= 14 + dib)
}

// flag bits each ID3v2 version leaves undefined (v2.2, v2.3, v2.4): they are zero in a real tag
const ID3_UNDEFINED_FLAGS: Record<number, number> = { 2: 0x3f, 3: 0x1f, 4: 0x0f }

/** 'ID3', version 2-4, no undefined flag set, and a syncsafe size (every byte below 0x80). */
function isId3(b: Uint8Array): boolean {
  return b.length >= 10 && b[0] === 0x49 && b[1] === 0x44 && b[2] === 0x33 && b[3] >= 2 && b[3] <= 4 && b[4] !== 0xff &&
    (b[5] & ID3_UNDEFINED_FLAGS[b[3]]) === 0 && b[6] < 0x80 && b[7] < 0x80 && b[8] < 0x80 && b[9] < 0x80
}

/**
 * An MPEG audio frame header: 11 sync bits, a version that is not reserved, layer II or III
 * (layer I is rare, and FF FE is a UTF-16 byte order mark), a bitrate index neither 0 nor 15,
 * a sample rate index that is not reserved.
 */
function isMpegFrame(b: Uint8Array): boolean {
  if (b.length < 3 || b[0] !== 0xff || (b[1] & 0xe0) !== 0xe0) return false
  const version = (b[1] >> 3) & 3
  const layer = (b[1] >> 1) & 3
  const bitrate = b[2] >> 4
  const rate = (b[2] >> 2) & 3
  return version !== 1 && (layer === 1 || layer === 2) && bitrate !== 0 && bitrate !== 15 && rate !== 3
}

const AVIF = new Set(['avif', 'avis'])
const HEIC = new Set(['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1'])
const AUDIO_MP4 = new Set(['M4A ', 'M4B ', 'M4P '])

/**
 * An ISO BMFF file (MP4, MOV, AVIF, HEIC) by its leading ftyp box: a plausible box size, then
 * the major brand. The generic image brands (mif1, msf1) are AVIF when an avif brand follows.
 */
function isoBrand(b: Uint8Array): string | undefined {
  if (b.length < 12 || ascii(b, 4, 4) !== 'ftyp') return undefined
  const size = u32be(b, 0)
  // size, type, major brand, minor version, then whole compatible brands; text gives a huge size
  if (size < 16 || size > 4096 || size % 4 !== 0) return undefined
  const major = ascii(b, 8, 4)
  const compatible: string[] = []
  for (let i = 16; i + 4 <= Math.min(size, b.length); i += 4) compatible.push(ascii(b, i, 4))
  if (AVIF.has(major) || ((major === 'mif1' || major === 'msf1') && compatible.some((c) => AVIF.has(c)))) return 'image/avif'
  if (HEIC.has(major)) return 'image/heic'
  if (AUDIO_MP4.has(major)) return 'audio/mp4'
  if (major === 'qt  ') return 'video/quicktime'
  return 'video/mp4'
}

// Text a person or the model can read as it is; anything else is binary unless sniffed as text.
const TEXTUAL = /^(text\/|application\/(json|jsonl|x-ndjson|xml|xhtml\+xml|javascript|ecmascript|yaml|x-yaml|toml|sql|graphql|ld\+json|rss\+xml|atom\+xml)\b)/i
/** a structured syntax suffix: application/vnd.api+json, application/soap+xml */
const TEXTUAL_SUFFIX = /^application\/[\w.+-]+\+(json|xml)\b/i

export function isTextualType(mediaType: string | undefined): boolean {
  if (!mediaType) return false
  const type = mediaType.trim()
  return TEXTUAL.test(type) || TEXTUAL_SUFFIX.test(type)
}

export function isImageType(mediaType: string | undefined): boolean {
  return !!mediaType && mediaType.startsWith('image/')
}

/** Stored bytes' type: what they are (sniffed), else what their sender said, a hint, their name's, or octet-stream. */
export function mediaTypeOfBytes(data: Uint8Array, said?: string, hint?: string, filename?: string): string {
  return sniffMediaType(data) ?? clean(said) ?? hint ?? (filename && mediaTypeOfName(filename)) ?? 'application/octet-stream'
}

function clean(mediaType?: string): string | undefined {
  const t = mediaType?.split(';')[0].trim().toLowerCase()
  return t && t !== 'application/octet-stream' ? t : undefined
}
