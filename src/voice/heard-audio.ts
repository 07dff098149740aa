// A voice message made ready for a speech server (SPEC §20): its format found from its bytes, its
// length read, SILK decoded to a 16 kHz WAV (no server takes SILK); the other formats go as they
// are, named by what they hold (an AMR saved as `.wav` is sent as AMR).
import { audioOf, type AudioFormat } from '../resources/audio-format'
import { audioSeconds } from './duration'
import { decodeSilk } from './silk'
import { VoiceError } from './voice-error'
import { pcmToWav } from './wav'

/** OpenAI's upload limit for a transcription */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024

export interface HeardAudio {
  format: AudioFormat
  /** what is uploaded */
  audio: Uint8Array
  mediaType: string
  seconds?: number
}

/** The format and length of a voice, without decoding it. */
export function voiceInfo(b: Buffer, sniffed: string | undefined): { format: AudioFormat; mediaType: string; seconds?: number } {
  const found = audioOf(b, sniffed)
  if (!found) throw new VoiceError('not_audio', `it is not audio kotodama knows${sniffed && sniffed !== 'application/octet-stream' ? ` (${sniffed})` : ''}`)
  const seconds = audioSeconds(b, found.format)
  return { format: found.format, mediaType: found.mediaType, ...(seconds !== undefined ? { seconds } : {}) }
}

/**
 * The upload of `b`; `maxSeconds` refuses a long recording before anything is uploaded, its length
 * read from the audio itself (SPEC §22): a platform's or a header's claim is never believed, and
 * audio whose length cannot be read is not uploaded at all (a speech server bills the real length).
 */
export async function heardAudio(b: Buffer, sniffed: string | undefined, o: { maxSeconds: number }): Promise<HeardAudio> {
  const info = voiceInfo(b, sniffed)
  if (info.seconds === undefined) {
    throw new VoiceError('unknown_length', `its length could not be read from the ${info.format} audio, so it was not sent to be transcribed`)
  }
  const tooLong = (seconds: number) => new VoiceError('too_long', `it is ${Math.round(seconds)} s long, over the ${o.maxSeconds} s limit`, seconds)
  if (info.seconds > o.maxSeconds) throw tooLong(info.seconds)
  if (info.format !== 'silk') {
    if (b.length > MAX_UPLOAD_BYTES) throw new VoiceError('too_large', `it is ${(b.length / 1048576).toFixed(1)} MB, over the 25 MB a speech server takes`)
    return { format: info.format, audio: b, mediaType: info.mediaType, seconds: info.seconds }
  }
  const pcm = await decodeSilk(b)
  // what is uploaded is the decoded WAV: its length is the one that counts
  if (pcm.seconds > o.maxSeconds) throw tooLong(pcm.seconds)
  return { format: 'silk', audio: pcmToWav(pcm), mediaType: 'audio/wav', seconds: info.seconds }
}
