// How long a voice message is, read from its bytes before anything is uploaded (SPEC §20: a voice
// over `maxSeconds` is not transcribed; SPEC §22: the decoded audio's length, never a header's).
// SILK, AMR and MP3 by their frames, WAV by its data bytes, Ogg by its pages and packets, FLAC by
// its STREAMINFO. undefined: the length is not known, and the voice is not transcribed.
import type { AudioFormat } from '../resources/audio-format'
import { silkSeconds } from './silk'
import { wavSeconds } from './wav'
import { mp3Seconds } from './mp3-frames'
import { oggSeconds } from './ogg-pages'

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
