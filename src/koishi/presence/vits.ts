// Koishi's `vits` service as the voice part's speaker (SPEC §20, `voice.tts: vits`): plugins such
// as luna-vits (GPT-SoVITS, fish-audio, QQ's AI voice), open-vits and fishaudio-vits provide
// `ctx.vits.say({ input, speaker_id })`, which answers an audio element. Its bytes are taken from
// the element's source (a data: URL, OneBot's base64://, a file or an http(s) link).
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { Context, h } from 'koishi'
import { VoiceError } from '../../voice/voice-error'

/** The service as the vits plugins declare it. */
interface VitsService {
  say(options: { input: string; speaker_id?: number }): Promise<h | h[] | string>
}

/** largest speech taken from the service */
const MAX_BYTES = 20 * 1024 * 1024

export async function vitsSpeak(ctx: Context, text: string, speaker: string): Promise<{ data: Buffer; mediaType?: string }> {
  const vits = (ctx as any).vits as VitsService | undefined
  if (!vits?.say) throw new VoiceError('no_vits', "voice.tts is 'vits' but no vits service is installed (a plugin such as luna-vits or open-vits provides it)")
  const id = /^\d+$/.test(speaker.trim()) ? Number(speaker.trim()) : undefined
  const said = await vits.say({ input: text, ...(id !== undefined ? { speaker_id: id } : {}) })
  const elements = typeof said === 'string' ? h.parse(said) : Array.isArray(said) ? said : [said]
  const audio = h.select(elements, 'audio')[0] ?? elements.find(el => el?.type === 'audio')
  const src = audio?.attrs?.src ?? audio?.attrs?.url
  if (typeof src !== 'string' || !src) throw new Error('the vits service answered without an audio element')
  return bytesOf(ctx, src)
}

async function bytesOf(ctx: Context, src: string): Promise<{ data: Buffer; mediaType?: string }> {
  const data = /^data:([^;,]*)(;base64)?,/i.exec(src)
  if (data) return { data: Buffer.from(src.slice(data[0].length), data[2] ? 'base64' : 'utf8'), mediaType: data[1] || undefined }
  if (/^base64:\/\//i.test(src)) return { data: Buffer.from(src.slice(9), 'base64') }
  if (/^file:\/\//i.test(src)) return { data: await readFile(fileURLToPath(src)) }
  if (/^https?:\/\//i.test(src) && typeof (ctx as any).http?.get === 'function') {
    const got = await (ctx as any).http.get(src, { responseType: 'arraybuffer', timeout: 30_000 })
    const bytes = Buffer.from(got)
    if (bytes.length > MAX_BYTES) throw new Error(`the vits service's audio is larger than ${MAX_BYTES} bytes`)
    return { data: bytes }
  }
  throw new Error('the vits service answered with audio kotodama cannot read')
}
