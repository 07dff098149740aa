/*
 * UTF-8 decoded greedily: a valid sequence gives its character, any other byte gives one U+FFFD.
 * That rule restarts cleanly at every byte position it reaches, so a page can begin at a
 * remembered byte position and still produce exactly the text a whole read would.
 */

export interface Decoded {
  text: string
  /** the bytes the text came from, and whether they were valid UTF-8 */
  bytes: Buffer
  clean: boolean
}

export function decode(bytes: Buffer, start: number, end: number): Decoded {
  const view = bytes.subarray(start, end)
  const fast = view.toString('utf8')
  if (!fast.includes('\uFFFD')) return { text: fast, bytes: view, clean: true }
  return { text: decodeGreedy(view), bytes: view, clean: false }
}

/** Bytes of the first text.length units of `decoded`. */
export function encodedLength(text: string, decoded: Decoded): number {
  if (decoded.clean) return Buffer.byteLength(text, 'utf8')
  const bytes = decoded.bytes
  let units = 0
  let i = 0
  while (units < text.length) {
    const length = bytes[i] < 0x80 ? 1 : sequenceLength(bytes, i, bytes.length)
    units += length === 4 ? 2 : 1
    i += length || 1
  }
  return i
}

/** One U+FFFD per byte that does not start a valid sequence. */
export function decodeGreedy(bytes: Uint8Array): string {
  const parts: string[] = []
  let codes: number[] = []
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]
    const length = b < 0x80 ? 1 : sequenceLength(bytes, i, bytes.length)
    if (length === 0) codes.push(0xfffd)
    else pushCodePoint(codes, codePoint(bytes, i, length))
    i += length || 1
    if (codes.length >= 8192) {
      parts.push(String.fromCharCode(...codes))
      codes = []
    }
  }
  parts.push(String.fromCharCode(...codes))
  return parts.join('')
}

function pushCodePoint(codes: number[], cp: number): void {
  if (cp < 0x10000) codes.push(cp)
  else codes.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff))
}

function codePoint(bytes: Uint8Array, i: number, length: number): number {
  if (length === 1) return bytes[i]
  let cp = bytes[i] & (0xff >> (length + 1))
  for (let k = 1; k < length; k++) cp = (cp << 6) | (bytes[i + k] & 0x3f)
  return cp
}

/** Length of the valid multi-byte sequence at i (RFC 3629), or 0. */
export function sequenceLength(bytes: Uint8Array, i: number, end: number): number {
  const b = bytes[i]
  const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0
  if (!length || i + length > end) return 0
  const [lo, hi] = secondByteRange(b)
  if (bytes[i + 1] < lo || bytes[i + 1] > hi) return 0
  for (let k = 2; k < length; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return 0
  return length
}

function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf]
  if (lead === 0xed) return [0x80, 0x9f]
  if (lead === 0xf0) return [0x90, 0xbf]
  if (lead === 0xf4) return [0x80, 0x8f]
  return [0x80, 0xbf]
}

/** True when bytes[i, end) is the valid start of a sequence that needs more bytes. */
function isIncompleteTail(bytes: Uint8Array, i: number, end: number): boolean {
  const b = bytes[i]
  const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0
  if (!length || i + length <= end) return false
  const [lo, hi] = secondByteRange(b)
  if (i + 1 < end && (bytes[i + 1] < lo || bytes[i + 1] > hi)) return false
  for (let k = 2; i + k < end; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return false
  return true
}

/** n, less a trailing sequence that the next bytes may complete. */
export function completeLength(bytes: Uint8Array, n: number): number {
  for (let i = n - 1; i >= Math.max(0, n - 3); i--) {
    if (bytes[i] >= 0xc0) return isIncompleteTail(bytes, i, n) ? i : n
    if (bytes[i] < 0x80) return n
  }
  return n
}

/** Binary when the first 8 KiB hold NUL or more than 10% invalid UTF-8 / stray controls. */
export function looksBinary(sample: Uint8Array): boolean {
  const end = Math.min(sample.length, 8192)
  let odd = 0
  for (let i = 0; i < end;) {
    const b = sample[i]
    if (b === 0) return true
    const length = b < 0x80 ? 1 : sequenceLength(sample, i, end)
    if (length === 0 && isIncompleteTail(sample, i, end)) break
    if (length === 0 || (b < 0x20 && !TEXT_CONTROLS.has(b)) || b === 0x7f) odd++
    i += length || 1
  }
  return odd * 10 > end
}

const TEXT_CONTROLS = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b])
