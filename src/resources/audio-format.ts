// Audio formats from their first bytes (SPEC §20): a file's name lies (NapCat saves AMR under a
// `.wav` name, AstrBot #9594), so voice is recognised by what it holds. QQ's SILK starts with a
// 0x02 byte before `#!SILK_V3`; other tools write the bare `#!SILK_V3` header.

export type AudioFormat = 'silk' | 'amr' | 'amr-wb' | 'wav' | 'ogg' | 'mp3' | 'flac' | 'm4a'

export interface DetectedAudio {
  format: AudioFormat
  mediaType: string
  /** SILK with QQ's leading 0x02 byte */
  qq?: boolean
}

const MEDIA_TYPES: Record<AudioFormat, string> = {
  silk: 'audio/silk', amr: 'audio/amr', 'amr-wb': 'audio/amr-wb', wav: 'audio/wav', ogg: 'audio/ogg',
  mp3: 'audio/mpeg', flac: 'audio/flac', m4a: 'audio/mp4',
}

const startsWith = (b: Uint8Array, at: number, text: string) => {
  if (b.length < at + text.length) return false
  for (let i = 0; i < text.length; i++) if (b[at + i] !== text.charCodeAt(i)) return false
  return true
}

const found = (format: AudioFormat, qq?: boolean): DetectedAudio => ({ format, mediaType: MEDIA_TYPES[format], ...(qq ? { qq } : {}) })

/**
 * The audio format of `b` by its header, undefined when it is none of the voice formats. MP3 and
 * M4A are left to the general sniff (resources/media-type.ts), which checks their headers closely;
 * `audioOf` below combines both.
 */
export function voiceFormat(b: Uint8Array): DetectedAudio | undefined {
  if (startsWith(b, 0, '#!SILK_V3')) return found('silk')
  if (b[0] === 0x02 && startsWith(b, 1, '#!SILK_V3')) return found('silk', true)
  if (startsWith(b, 0, '#!AMR-WB\n')) return found('amr-wb')
  if (startsWith(b, 0, '#!AMR\n')) return found('amr')
  if (startsWith(b, 0, 'RIFF') && startsWith(b, 8, 'WAVE')) return found('wav')
  if (startsWith(b, 0, 'OggS')) return found('ogg')
  if (startsWith(b, 0, 'fLaC')) return found('flac')
  return undefined
}

/** The format of an audio file given its sniffed media type (for MP3 and M4A). */
export function audioOf(b: Uint8Array, sniffed: string | undefined): DetectedAudio | undefined {
  const voice = voiceFormat(b)
  if (voice) return voice
  if (sniffed === 'audio/mpeg') return found('mp3')
  if (sniffed === 'audio/mp4') return found('m4a')
  return undefined
}
