// A video as the model reads it (SPEC §19): `[video: asset://…]`. OneBot's `video` (NapCatQQ's
// videoElement converter: `file`, `url`, `file_size`) arrives from the adapter as `<video src>`.
import h from '@satorijs/element'
import type { RenderKit } from './kit'
import { mediaText, sizeOf, sourceOf, store } from './media'

export function renderVideo(el: h, kit: RenderKit): Promise<h> | undefined {
  return el.type === 'video' ? video(el, kit) : undefined
}

async function video(el: h, kit: RenderKit): Promise<h> {
  const a = el.attrs ?? {}
  return h.text(mediaText('video', await store(kit.assets, sourceOf(el), { mediaType: a.mime ?? a.type, filename: a.filename ?? a.file, size: sizeOf(a) })))
}
