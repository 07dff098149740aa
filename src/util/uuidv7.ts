import { randomBytes } from 'node:crypto'

let lastMs = 0
let seq = 0

/** RFC 9562 UUIDv7: 48-bit ms timestamp, then random bits; a counter keeps ids monotonic within a ms. */
export function uuidv7(now = Date.now()): string {
  if (now <= lastMs) {
    seq = (seq + 1) & 0xfff
    if (seq === 0) lastMs++
    now = lastMs
  } else {
    lastMs = now
    seq = randomBytes(2).readUInt16BE() & 0x7ff
  }
  const b = randomBytes(16)
  b.writeUIntBE(now, 0, 6)
  b[6] = 0x70 | (seq >> 8)
  b[7] = seq & 0xff
  b[8] = (b[8] & 0x3f) | 0x80
  const hex = b.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export const UUIDV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
