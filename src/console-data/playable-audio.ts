// A voice as the console page's browser plays it (SPEC §20): SILK, which no browser plays, decoded
// and wrapped as WAV; WAV, MP3, Ogg, FLAC and M4A as they are. AMR is not playable in browsers and
// is not converted (no decoder here): undefined, as for bytes that are no audio or a damaged SILK.
import { audioOf } from '../resources/audio-format'
import { sniffMediaType } from '../resources/media-type'
import { decodeSilk, silkSeconds } from '../voice/silk'
import { pcmToWav } from '../voice/wav'

/** the rate SILK is decoded at: QQ records at 24 kHz */
const SILK_RATE = 24000
const AS_THEY_ARE = new Set(['wav', 'mp3', 'ogg', 'flac', 'm4a'])

/** `data` as a file the browser plays, and its media type; undefined when there is none, or it would exceed `maxBytes`. */
export async function playableAudio(data: Buffer, maxBytes: number): Promise<{ data: Buffer; mediaType: string } | undefined> {
  if (data.length > maxBytes) return undefined
  const found = audioOf(data, sniffMediaType(data))
  if (!found) return undefined
  if (AS_THEY_ARE.has(found.format)) return { data, mediaType: found.mediaType }
  if (found.format !== 'silk') return undefined
  // its WAV's size is known from its frames before anything is decoded
  const seconds = silkSeconds(data)
  if (!seconds || 44 + seconds * SILK_RATE * 2 > maxBytes) return undefined
  try {
    return { data: pcmToWav(await decodeSilk(data, SILK_RATE)), mediaType: 'audio/wav' }
  } catch {
    return undefined
  }
}
