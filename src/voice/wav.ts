// WAV files (RIFF, PCM or IEEE float) read into mono pcm_s16le and written from it: the form the
// SILK encoder takes and the form a speech server is sent a decoded SILK file in.

export interface Pcm {
  /** mono pcm_s16le */
  data: Buffer
  rate: number
}

export interface WavInfo {
  format: number
  channels: number
  rate: number
  bits: number
  /** the data chunk's offset and length in bytes */
  dataAt: number
  dataBytes: number
}

const PCM = 1
const FLOAT = 3
const EXTENSIBLE = 0xfffe

/** The header of a WAV file; undefined when it is not one kotodama can read (a clear reason in `why`). */
export function wavInfo(b: Buffer): WavInfo | { why: string } {
  if (b.length < 12 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WAVE') return { why: 'not a WAV file' }
  let fmt: Omit<WavInfo, 'dataAt' | 'dataBytes'> | undefined
  for (let at = 12; at + 8 <= b.length;) {
    const id = b.toString('latin1', at, at + 4)
    const size = b.readUInt32LE(at + 4)
    if (id === 'fmt ' && at + 24 <= b.length) {
      let format = b.readUInt16LE(at + 8)
      // WAVE_FORMAT_EXTENSIBLE keeps the real format in the first two bytes of its sub-format GUID
      if (format === EXTENSIBLE && at + 34 <= b.length) format = b.readUInt16LE(at + 32)
      fmt = { format, channels: b.readUInt16LE(at + 10), rate: b.readUInt32LE(at + 12), bits: b.readUInt16LE(at + 22) }
    } else if (id === 'data') {
      if (!fmt) return { why: 'a WAV file without its format chunk' }
      // a streamed WAV says 0 or 0xffffffff: the data runs to the end
      const dataBytes = size === 0 || size === 0xffffffff ? b.length - at - 8 : Math.min(size, b.length - at - 8)
      return { ...fmt, dataAt: at + 8, dataBytes }
    }
    at += 8 + size + (size & 1)
  }
  return { why: fmt ? 'a WAV file without audio data' : 'a WAV file without its format chunk' }
}

/**
 * Seconds of audio a decoder reads from a WAV: every byte after the data chunk's start, whatever
 * length its header claims (SPEC §22: a header saying 1 s over 120 s of samples is 120 s).
 * undefined when the format is unreadable or implausible.
 */
export function wavSeconds(b: Buffer): number | undefined {
  const info = wavInfo(b)
  if ('why' in info) return undefined
  const { rate, channels, bits } = info
  if (rate < 1000 || rate > 768000 || channels < 1 || channels > 32 || bits < 8 || bits > 64 || bits % 8) return undefined
  return (b.length - info.dataAt) / (rate * channels * (bits / 8))
}

/** The WAV's samples as mono s16le (channels averaged); throws with a clear reason. */
export function wavToPcm(b: Buffer): Pcm {
  const info = wavInfo(b)
  if ('why' in info) throw new Error(info.why)
  const { format, channels, rate, bits } = info
  const width = bits / 8
  const readable = (format === PCM && (bits === 16 || bits === 8 || bits === 24 || bits === 32)) || (format === FLOAT && (bits === 32 || bits === 64))
  if (!readable || !channels || !rate) throw new Error(`a WAV file kotodama cannot read (format ${format}, ${bits} bits, ${channels} channels)`)
  const frames = Math.floor(info.dataBytes / (width * channels))
  const out = Buffer.alloc(frames * 2)
  const sample = (at: number): number => {
    if (format === FLOAT) return (bits === 32 ? b.readFloatLE(at) : b.readDoubleLE(at)) * 32767
    if (bits === 8) return (b[at] - 128) << 8
    if (bits === 16) return b.readInt16LE(at)
    if (bits === 24) return b.readIntLE(at, 3) >> 8
    return b.readInt32LE(at) >> 16
  }
  for (let f = 0; f < frames; f++) {
    let sum = 0
    for (let c = 0; c < channels; c++) sum += sample(info.dataAt + (f * channels + c) * width)
    out.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(sum / channels))), f * 2)
  }
  return { data: out, rate }
}

/** A mono 16-bit WAV file of `pcm`. */
export function pcmToWav(pcm: Pcm): Buffer {
  const head = Buffer.alloc(44)
  head.write('RIFF', 0, 'latin1')
  head.writeUInt32LE(36 + pcm.data.length, 4)
  head.write('WAVEfmt ', 8, 'latin1')
  head.writeUInt32LE(16, 16)
  head.writeUInt16LE(PCM, 20)
  head.writeUInt16LE(1, 22)
  head.writeUInt32LE(pcm.rate, 24)
  head.writeUInt32LE(pcm.rate * 2, 28)
  head.writeUInt16LE(2, 32)
  head.writeUInt16LE(16, 34)
  head.write('data', 36, 'latin1')
  head.writeUInt32LE(pcm.data.length, 40)
  return Buffer.concat([head, pcm.data])
}

/** `pcm` at `rate` (linear interpolation: speech, not music). */
export function resample(pcm: Pcm, rate: number): Pcm {
  if (pcm.rate === rate) return pcm
  const n = pcm.data.length >> 1
  const m = Math.floor(n * rate / pcm.rate)
  const out = Buffer.alloc(m * 2)
  const step = pcm.rate / rate
  for (let i = 0; i < m; i++) {
    const x = i * step
    const k = Math.floor(x)
    const a = pcm.data.readInt16LE(Math.min(k, n - 1) * 2)
    const b = pcm.data.readInt16LE(Math.min(k + 1, n - 1) * 2)
    out.writeInt16LE(Math.round(a + (b - a) * (x - k)), i * 2)
  }
  return { data: out, rate }
}
