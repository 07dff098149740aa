// How long a voice message is, read from its bytes before anything is uploaded (SPEC §20: a voice
// over `maxSeconds` is not transcribed). Exact for SILK, WAV, AMR and FLAC; MP3 from its first
// frame's bitrate; Ogg from its last page's granule position. undefined: the length is not known.
import type { AudioFormat } from '../resources/audio-format'
import { silkSeconds } from './silk'
import { wavSeconds } from './wav'

// AMR-NB and AMR-WB frame sizes in bytes (header byte included) by frame type, 3GPP TS 26.101 / 26.201
const AMR_NB = [13, 14, 16, 18, 20, 21, 27, 32, 6, 0, 0, 0, 0, 0, 0, 1]
const AMR_WB = [18, 24, 33, 37, 41, 47, 51, 59, 61, 6, 0, 0, 0, 0, 1, 1]

export function audioSeconds(b: Buffer, format: AudioFormat): number | undefined {
  switch (format) {
    case 'silk': return silkSeconds(b)
    case 'wav': return wavSeconds(b)
    case 'amr': return amrSeconds(b, 6, AMR_NB)
    case 'amr-wb': return amrSeconds(b, 9, AMR_WB)
    case 'flac': return flacSeconds(b)
    case 'mp3': return mp3Seconds(b)
    case 'ogg': return oggSeconds(b)
    default: return undefined
  }
}

/** 20 ms a frame; a frame type with no size ends the count (a damaged file). */
function amrSeconds(b: Buffer, header: number, sizes: number[]): number | undefined {
  let frames = 0
  for (let at = header; at < b.length; frames++) {
    const size = sizes[(b[at] >> 3) & 0x0f]
    if (!size) break
    at += size
  }
  return frames ? frames * 0.02 : undefined
}

/** STREAMINFO: 20 bits of sample rate, 36 bits of total samples. */
function flacSeconds(b: Buffer): number | undefined {
  if (b.length < 26) return undefined
  const rate = (b[18] << 12) | (b[19] << 4) | (b[20] >> 4)
  const samples = (b[21] & 0x0f) * 2 ** 32 + b.readUInt32BE(22)
  return rate && samples ? samples / rate : undefined
}

const MP3_KBPS: Record<number, number[]> = {
  // MPEG-1 layer III, and MPEG-2/2.5 layer III (bitrate index 1..14)
  1: [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  2: [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
}

/** The whole file at its first frame's bitrate (exact for constant bitrate, near for most voice). */
function mp3Seconds(b: Buffer): number | undefined {
  let at = 0
  if (b.toString('latin1', 0, 3) === 'ID3' && b.length >= 10) at = 10 + ((b[6] << 21) | (b[7] << 14) | (b[8] << 7) | b[9])
  for (const end = Math.min(b.length - 3, at + 4096); at < end; at++) {
    if (b[at] !== 0xff || (b[at + 1] & 0xe0) !== 0xe0) continue
    const version = (b[at + 1] >> 3) & 3
    const index = b[at + 2] >> 4
    const kbps = MP3_KBPS[version === 3 ? 1 : 2]?.[index - 1]
    if (kbps) return (b.length - at) * 8 / (kbps * 1000)
  }
  return undefined
}

/** Opus counts at 48 kHz; Vorbis at the rate of its identification header. */
function oggSeconds(b: Buffer): number | undefined {
  const last = b.lastIndexOf('OggS', b.length - 27)
  if (last < 0 || last + 14 > b.length) return undefined
  const granule = Number(b.readBigUInt64LE(last + 6))
  const vorbis = b.indexOf('\x01vorbis', 0, 'latin1')
  const rate = vorbis >= 0 && vorbis + 16 <= b.length ? b.readUInt32LE(vorbis + 12) : 48000
  return granule > 0 && rate ? granule / rate : undefined
}
