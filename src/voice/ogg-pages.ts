// An Ogg file's length from all its pages (SPEC §20, §22: never a header's). Every page is walked;
// the length is the highest granule position (minus Opus's pre-skip, at 48 kHz; Vorbis at its
// identification header's rate). For Opus each packet's TOC byte (RFC 6716 §3.1) says how many
// samples it holds, so a granule that claims less than the packets carry is not believed.

/** ms per frame by TOC configuration 0..31: SILK, hybrid, CELT */
const OPUS_FRAME_MS = [
  10, 20, 40, 60, 10, 20, 40, 60, 10, 20, 40, 60,
  10, 20, 10, 20,
  2.5, 5, 10, 20, 2.5, 5, 10, 20, 2.5, 5, 10, 20, 2.5, 5, 10, 20,
]

/** Samples at 48 kHz in the Opus packet starting at `at`. */
function opusSamples(b: Buffer, at: number): number {
  const toc = b[at]
  const code = toc & 3
  const frames = code === 0 ? 1 : code < 3 ? 2 : (b[at + 1] ?? 0) & 0x3f
  return frames * OPUS_FRAME_MS[toc >> 3] * 48
}

export function oggSeconds(b: Buffer): number | undefined {
  const opus = b.indexOf('OpusHead', 0, 'latin1')
  const vorbis = b.indexOf('\x01vorbis', 0, 'latin1')
  const preSkip = opus >= 0 && opus + 12 <= b.length ? b.readUInt16LE(opus + 10) : 0
  const rate = opus >= 0 ? 48000 : vorbis >= 0 && vorbis + 16 <= b.length ? b.readUInt32LE(vorbis + 12) : 0
  if (!rate) return undefined
  let granule = 0
  let packets = 0
  let inPacket = false
  for (let at = b.indexOf('OggS', 0, 'latin1'); at >= 0 && at + 27 <= b.length;) {
    const segments = b[at + 26]
    const body = at + 27 + segments
    if (body > b.length) break
    // -1: no packet ends on this page
    const g = b.readBigInt64LE(at + 6)
    if (g > 0n) granule = Math.max(granule, Number(g))
    inPacket = inPacket && (b[at + 5] & 1) === 1
    let data = body
    for (let s = 0; s < segments; s++) {
      const size = b[at + 27 + s]
      if (!inPacket && size && opus >= 0 && data < b.length && !b.toString('latin1', data, data + 4).startsWith('Opus')) packets += opusSamples(b, data)
      inPacket = size === 255
      data += size
    }
    at = b.indexOf('OggS', Math.max(data, at + 4), 'latin1')
  }
  const samples = Math.max(granule, packets) - preSkip
  return samples > 0 ? samples / rate : undefined
}
