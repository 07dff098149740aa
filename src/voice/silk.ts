// QQ's SILK v3 through silk-wasm (MIT, a maintained build of Skype's codec): decoded to PCM for a
// speech server and for the browser, encoded from PCM where the platform takes only SILK. silk-wasm
// decodes only QQ's form (the leading 0x02 byte), so the byte is put back on a bare `#!SILK_V3` file;
// it encodes QQ's form. A damaged file throws from inside the wasm: said here in words.
import { decode, encode, getDuration } from 'silk-wasm'
import { voiceFormat } from '../resources/audio-format'
import { VoiceError } from './voice-error'
import { resample, type Pcm } from './wav'

/** The rates silk-wasm encodes from; anything else is resampled to 24 kHz first. */
const ENCODE_RATES = new Set([8000, 12000, 16000, 24000, 32000, 44100, 48000])

/** QQ's form of a SILK file: with its 0x02 byte. */
export function qqSilk(b: Buffer): Buffer {
  return voiceFormat(b)?.qq ? b : Buffer.concat([Buffer.from([0x02]), b])
}

/** The length of a SILK file from its frames, in seconds; undefined when it cannot be read. */
export function silkSeconds(b: Buffer): number | undefined {
  try {
    const ms = getDuration(qqSilk(b))
    return ms > 0 ? ms / 1000 : undefined
  } catch {
    return undefined
  }
}

/** A SILK file as mono PCM at `rate` (16 kHz: what speech recognisers take). */
export async function decodeSilk(b: Buffer, rate = 16000): Promise<Pcm & { seconds: number }> {
  let r: { data: Uint8Array; duration: number }
  try {
    r = await decode(qqSilk(b), rate)
  } catch (e: any) {
    throw new VoiceError('decode_failed', `the SILK audio is damaged (${e?.message ?? e})`)
  }
  if (!r.data.length) throw new VoiceError('decode_failed', 'the SILK audio holds no sound')
  return { data: Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength), rate, seconds: r.duration / 1000 }
}

/** PCM as QQ's SILK (with the 0x02 byte), and its length in seconds. */
export async function encodeSilk(pcm: Pcm): Promise<{ data: Buffer; seconds: number }> {
  const input = ENCODE_RATES.has(pcm.rate) ? pcm : resample(pcm, 24000)
  if (!input.data.length) throw new VoiceError('encode_failed', 'there is no sound to encode')
  try {
    const r = await encode(input.data, input.rate)
    return { data: Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength), seconds: r.duration / 1000 }
  } catch (e: any) {
    throw new VoiceError('encode_failed', `the audio could not be encoded as SILK (${e?.message ?? e})`)
  }
}
