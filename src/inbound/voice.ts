// A voice message as the model reads it (SPEC §19, §20): `[voice: asset://…]`, or `[voice 4 s: asset://…]`
// when the element says how long it is. Satori's `<audio duration>` is in seconds (Telegram's and
// Discord's adapters set it); OneBot's `record` has no duration (NapCatQQ's pttElement converter), and
// its `file_size` says nothing about seconds. With voice.stt set it is handed to the voice part,
// whose transcript later fills the line in (`[voice 4 s: asset://…] "the words"`).
import h from '@satorijs/element'
import { voiceHead } from '../history/voice-line'
import type { RenderKit } from './kit'
import { mediaText, numberOf, sizeOf, sourceOf, store } from './media'

export function renderVoice(el: h, kit: RenderKit): Promise<h> | undefined {
  return el.type === 'audio' ? voice(el, kit) : undefined
}

async function voice(el: h, kit: RenderKit): Promise<h> {
  const a = el.attrs ?? {}
  const stored = await store(kit.assets, sourceOf(el), { mediaType: a.mime ?? a.type, filename: a.filename ?? a.file, size: sizeOf(a) })
  const seconds = numberOf(a.duration)
  if ('url' in stored) kit.voice?.(stored.url, seconds)
  return h.text(mediaText(voiceHead(seconds), stored))
}
