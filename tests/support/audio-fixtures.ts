// Audio the tests make themselves, so the repository holds no binary blobs: a speech-like tone as
// pcm_s16le, WAV files written by hand (RIFF/WAVE: a fmt chunk and a data chunk, per Microsoft's
// "Multimedia Programming Interface and Data Specifications 1.0"), SILK through silk-wasm, and
// the first bytes of AMR, Ogg and MP3 files for format detection.
import { encode } from 'silk-wasm'

export interface ToneOptions {
  /** samples per second; default 24000 (what OpenAI's TTS answers) */
  rate?: number
  /** the pitch; default 440 */
  hz?: number
  /** the peak sample value; default 8000 */
  amplitude?: number
}

/** `seconds` of mono pcm_s16le: a tone whose loudness rises and falls like syllables, never constant. */
export function tone(seconds: number, o: ToneOptions = {}): Buffer {
  const { rate = 24000, hz = 440, amplitude = 8000 } = o
  const n = Math.max(0, Math.round(seconds * rate))
  const out = Buffer.alloc(n * 2)
  for (let i = 0; i < n; i++) {
    const t = i / rate
    // about four "syllables" a second, never quite silent so encoders keep every frame
    const envelope = 0.55 + 0.45 * Math.sin(2 * Math.PI * 4 * t)
    out.writeInt16LE(Math.round(amplitude * envelope * Math.sin(2 * Math.PI * hz * t)), i * 2)
  }
  return out
}

export interface WavOptions {
  /** default 24000 */
  rate?: number
  /** 1 or 2; stereo copies each mono sample into both channels, interleaved. Default 1 */
  channels?: number
  /** 16 writes PCM (format 1); 32 writes IEEE float (format 3, with cbSize and a fact chunk). Default 16 */
  bitsPerSample?: 16 | 32
  /** chunks written between fmt and data (e.g. a LIST), for readers that assume data at byte 44 */
  chunks?: { id: string; data: Buffer }[]
}

function chunk(id: string, data: Buffer): Buffer {
  if (id.length !== 4) throw new Error(`a RIFF chunk id has 4 characters: ${id}`)
  const head = Buffer.alloc(8)
  head.write(id, 0, 'latin1')
  head.writeUInt32LE(data.length, 4)
  // chunks are word-aligned: an odd size is followed by a pad byte not counted in the size
  return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)])
}

/** A WAV file of mono pcm_s16le `pcm`, written by hand. */
export function wav(pcm: Buffer, o: WavOptions = {}): Buffer {
  const { rate = 24000, channels = 1, bitsPerSample = 16 } = o
  const float = bitsPerSample === 32
  const frames = Math.floor(pcm.length / 2)
  const bytesPerSample = bitsPerSample / 8
  const data = Buffer.alloc(frames * channels * bytesPerSample)
  for (let i = 0; i < frames; i++) {
    const s = pcm.readInt16LE(i * 2)
    for (let c = 0; c < channels; c++) {
      const at = (i * channels + c) * bytesPerSample
      if (float) data.writeFloatLE(s / 32768, at)
      else data.writeInt16LE(s, at)
    }
  }
  // PCM's fmt is 16 bytes; any other format adds cbSize (0 here) and needs a fact chunk
  const fmt = Buffer.alloc(float ? 18 : 16)
  fmt.writeUInt16LE(float ? 3 : 1, 0)
  fmt.writeUInt16LE(channels, 2)
  fmt.writeUInt32LE(rate, 4)
  fmt.writeUInt32LE(rate * channels * bytesPerSample, 8)
  fmt.writeUInt16LE(channels * bytesPerSample, 12)
  fmt.writeUInt16LE(bitsPerSample, 14)
  const fact = Buffer.alloc(4)
  fact.writeUInt32LE(frames, 0)
  const body = Buffer.concat([
    Buffer.from('WAVE', 'latin1'),
    chunk('fmt ', fmt),
    ...(float ? [chunk('fact', fact)] : []),
    ...(o.chunks ?? []).map((c) => chunk(c.id, c.data)),
    chunk('data', data),
  ])
  return chunk('RIFF', body)
}

export interface WavInfo {
  formatCode: number
  channels: number
  rate: number
  bitsPerSample: number
  /** where the data chunk's samples start */
  dataOffset: number
  /** the data chunk's declared size */
  dataLength: number
  /** dataLength over the byte rate */
  seconds: number
}

/** Reads a WAV file's fmt and data chunks (walking the chunks, not assuming a 44-byte header). */
export function readWav(file: Buffer): WavInfo {
  if (file.length < 12 || file.toString('latin1', 0, 4) !== 'RIFF' || file.toString('latin1', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file')
  }
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataLength' | 'seconds'> | undefined
  for (let at = 12; at + 8 <= file.length;) {
    const id = file.toString('latin1', at, at + 4)
    const size = file.readUInt32LE(at + 4)
    if (id === 'fmt ') {
      fmt = {
        formatCode: file.readUInt16LE(at + 8),
        channels: file.readUInt16LE(at + 10),
        rate: file.readUInt32LE(at + 12),
        bitsPerSample: file.readUInt16LE(at + 22),
      }
    } else if (id === 'data') {
      if (!fmt) throw new Error('a data chunk before the fmt chunk')
      const byteRate = fmt.rate * fmt.channels * (fmt.bitsPerSample / 8)
      return { ...fmt, dataOffset: at + 8, dataLength: size, seconds: size / byteRate }
    }
    at += 8 + size + (size % 2)
  }
  throw new Error('no data chunk')
}

/** SILK as QQ sends it: silk-wasm's encoding, which starts with Tencent's 0x02 byte before `#!SILK_V3`. */
export async function silk(pcm: Buffer, rate = 24000): Promise<Buffer> {
  const { data } = await encode(pcm, rate)
  const out = Buffer.from(data)
  // the fixture promises QQ's layout; if silk-wasm ever drops the byte, add it back
  return out[0] === 0x02 ? out : Buffer.concat([Buffer.from([0x02]), out])
}

/** The same SILK without the leading 0x02: `#!SILK_V3` at offset 0, as other encoders write it. */
export async function silkWithout02(pcm: Buffer, rate = 24000): Promise<Buffer> {
  return (await silk(pcm, rate)).subarray(1)
}

/**
 * `#!AMR\n` and three AMR-NB frame headers (mode 7, 12.2 kbit/s: 0x3C and 31 bytes each) for
 * format detection only: the frames are zeros, not meant to be decoded.
 */
export function amrHeader(): Buffer {
  const frame = Buffer.alloc(32)
  frame[0] = 0x3c
  return Buffer.concat([Buffer.from('#!AMR\n', 'latin1'), frame, frame, frame])
}

// Ogg's CRC-32: polynomial 0x04c11db7, no reflection, initial 0 (RFC 3533, section 6)
function oggCrc(page: Buffer): number {
  let crc = 0
  for (const byte of page) {
    crc ^= byte << 24
    for (let k = 0; k < 8; k++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1
  }
  return crc >>> 0
}

/** The first page of an Ogg Opus file (RFC 7845 section 5.1's OpusHead, mono, 48 kHz): a header, no audio. */
export function oggHeader(): Buffer {
  const head = Buffer.alloc(19)
  head.write('OpusHead', 0, 'latin1')
  head[8] = 1 // version
  head[9] = 1 // channels
  head.writeUInt16LE(312, 10) // pre-skip
  head.writeUInt32LE(48000, 12) // the input's rate
  const page = Buffer.alloc(27 + 1)
  page.write('OggS', 0, 'latin1')
  page[5] = 0x02 // beginning of stream
  page.writeUInt32LE(0x6b6f746f, 14) // serial number
  page[26] = 1 // one segment
  page[27] = head.length
  const whole = Buffer.concat([page, head])
  whole.writeUInt32LE(oggCrc(whole), 22)
  return whole
}

/** An ID3v2.4 tag (10 bytes of padding) and one MPEG-1 Layer III frame header (128 kbit/s, 44.1 kHz) with zeros: a header, not playable. */
export function mp3Header(): Buffer {
  const id3 = Buffer.from([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, ...new Array(10).fill(0)])
  const frame = Buffer.alloc(32)
  frame.set([0xff, 0xfb, 0x90, 0x64])
  return Buffer.concat([id3, frame])
}

/** The first `n` bytes of `buf` (a negative `n` drops that many from the end), as a copy. */
export function truncated(buf: Buffer, n: number): Buffer {
  return Buffer.from(buf.subarray(0, n < 0 ? Math.max(0, buf.length + n) : n))
}

/** MPEG-1 Layer III bitrates (kbit/s) by bitrate index 1..14 */
const MP3_V1L3 = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]

/**
 * An MP3 made of whole frames (MPEG-1 Layer III, 44.1 kHz, 1152 samples each; zeros after each
 * header): one frame per bitrate in `kbps`, so `[320, ...Array(n).fill(32)]` is a variable-bitrate
 * file whose first frame makes it look short. Each frame lasts 1152 / 44100 s.
 */
export function mp3Frames(kbps: number[]): Buffer {
  return Buffer.concat(kbps.map(k => {
    const index = MP3_V1L3.indexOf(k) + 1
    if (!index) throw new Error(`no MPEG-1 Layer III bitrate ${k}`)
    const frame = Buffer.alloc(Math.floor(144 * k * 1000 / 44100))
    frame.set([0xff, 0xfb, index << 4, 0x64])
    return frame
  }))
}

/** One Ogg page of `packets` (each under 255 bytes), with its granule position and CRC. */
function oggPage(packets: Buffer[], granule: bigint, sequence: number, flags = 0): Buffer {
  const page = Buffer.alloc(27 + packets.length)
  page.write('OggS', 0, 'latin1')
  page[5] = flags
  page.writeBigInt64LE(granule, 6)
  page.writeUInt32LE(0x6b6f746f, 14)
  page.writeUInt32LE(sequence, 18)
  page[26] = packets.length
  packets.forEach((p, i) => { page[27 + i] = p.length })
  const whole = Buffer.concat([page, ...packets])
  whole.writeUInt32LE(oggCrc(whole), 22)
  return whole
}

/**
 * An Ogg Opus file of `seconds` in 20 ms CELT packets (TOC 0xf8, 50 to a page), after the OpusHead
 * page of `oggHeader()` (pre-skip 312) and an OpusTags page. `claim`: the granule position the
 * last page says, in seconds (a lie when it differs); by default the truth.
 */
export function oggOpus(seconds: number, claim?: number): Buffer {
  const PRE_SKIP = 312
  const tags = Buffer.alloc(16)
  tags.write('OpusTags', 0, 'latin1')
  const pages = [oggHeader(), oggPage([tags], 0n, 1)]
  const packets = Math.round(seconds * 50)
  for (let done = 0, seq = 2; done < packets; seq++) {
    const n = Math.min(50, packets - done)
    done += n
    const last = done === packets
    const granule = BigInt((last && claim !== undefined ? Math.round(claim * 48000) : done * 960) + PRE_SKIP)
    pages.push(oggPage(Array.from({ length: n }, () => Buffer.from([0xf8, 0x01, 0x02, 0x03])), granule, seq, last ? 0x04 : 0))
  }
  return Buffer.concat(pages)
}
