// A plain image as the model reads it: `<img src="asset://…"/>` (the projection attaches it, SPEC §7),
// with only attributes that describe it. What the platform adds (NapCat's `file` hash name,
// `sub_type`, `file_size`, the adapter's `url`) is left out; a `summary` stays only when it says
// more than QQ's default '[图片]'. An image whose bytes are a library sticker's reads as that sticker
// (SPEC §19): `[sticker: asset://… name: description]`.
import h from '@satorijs/element'
import type { RenderKit } from './kit'
import { label, mediaText, numberOf, sizeOf, sourceOf, store } from './media'
import { summaryOf } from './sticker'
import { libraryLabel, SMALL_IMAGE_BYTES, stickerNote } from './sticker-match'

export function renderImage(el: h, kit: RenderKit): Promise<h> | undefined {
  return el.type === 'img' || el.type === 'image' ? image(el, kit) : undefined
}

async function image(el: h, kit: RenderKit): Promise<h> {
  const a = el.attrs ?? {}
  const stored = await store(kit.assets, sourceOf(el), { mediaType: a.mime ?? a.type, filename: a.filename ?? a.file, size: sizeOf(a) })
  if (!('url' in stored)) return h.text(mediaText('image', stored))
  if (kit.stickers) {
    const size = numberOf(a.fileSize ?? a.file_size)
    const known = await libraryLabel(stored, kit, size !== undefined && size <= SMALL_IMAGE_BYTES)
    if (known) return h.text(mediaText('sticker', stored, stickerNote(summaryOf(a.summary), known)))
  }
  const attrs: Record<string, unknown> = { src: stored.url }
  for (const k of ['title', 'filename'] as const) if (label(a[k])) attrs[k] = label(a[k])
  for (const k of ['width', 'height'] as const) if (numberOf(a[k]) !== undefined) attrs[k] = numberOf(a[k])
  const summary = summaryOf(a.summary)
  if (summary) attrs.summary = summary
  return h('img', attrs)
}
