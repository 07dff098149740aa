// Speech made ready for the platform (SPEC §20): what the server sent is recognised by its bytes (a
// server that answers JSON with status 200 is caught here, the AI SDK takes any body as audio),
// timed, and encoded as SILK where the platform takes voice only or best that way.
import { audioOf } from '../resources/audio-format'
import { sniffMediaType } from '../resources/media-type'
import { audioSeconds } from './duration'
import { encodeSilk, qqSilk } from './silk'
import type { VoiceFormat } from './types'
import { VoiceError } from './voice-error'
import { wavToPcm } from './wav'

export interface ReadyVoice {
  data: Buffer
  mediaType: string
  seconds: number
}

/** characters a second of speech, when the audio's length cannot be read (Chinese is spoken at some 4 a second) */
const CHARS_PER_SECOND = 4

/** The start of a body that is text, for the reason a reply was not audio. */
function preview(b: Buffer): string {
  const text = b.subarray(0, 200).toString('utf8')
  const printable = /^[\x09\x0a\x0d\x20-\x7e\u00a0-\uffff]*$/.test(text)
  const squeezed = text.replace(/\s+/g, ' ').trim()
  return printable && squeezed ? `: ${squeezed.length > 60 ? `${squeezed.slice(0, 60)}…` : squeezed}` : ` (${b.length} bytes of no known format)`
}

export async function readyVoice(b: Buffer, text: string, format: VoiceFormat | undefined): Promise<ReadyVoice> {
  if (!b.length) throw new VoiceError('not_audio', 'the speech server sent an empty answer')
  const found = audioOf(b, sniffMediaType(b))
  if (!found) throw new VoiceError('not_audio', `the speech server sent no audio${preview(b)}`)
  const seconds = audioSeconds(b, found.format) ?? Math.max(1, [...text].length / CHARS_PER_SECOND)
  if (!format || found.format === 'silk') {
    return found.format === 'silk' ? { data: qqSilk(b), mediaType: 'audio/silk', seconds } : { data: b, mediaType: found.mediaType, seconds }
  }
  if (found.format === 'wav') {
    const silk = await encodeSilk(wavToPcm(b))
    return { data: silk.data, mediaType: 'audio/silk', seconds: silk.seconds }
  }
  if (format === 'silk-preferred') return { data: b, mediaType: found.mediaType, seconds }
  const why = `this platform takes voice only as SILK and kotodama encodes it from WAV, but the speech server sent ${found.format}: set it to answer wav`
  throw new VoiceError('needs_silk', why)
}
