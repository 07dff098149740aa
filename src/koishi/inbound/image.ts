// A plain image as the model reads it: `<img src="asset://…"/>` (the projection attaches it, SPEC §7),
// with only attributes that describe it. What the platform adds (NapCat's `file` hash name,
// `sub_type`, `file_size`, the adapter's `url`) is left out; a `summary` stays only when it says
// more than QQ's default '[图片]'.
import { h } from 'koishi'
import type { RenderKit } from './kit'
import { label, mediaText, numberOf, sourceOf, store } from './media'
import { summaryOf } from './sticker'

export function renderImage(el: h, kit: RenderKit): Promise<h> | undefined {
  return el.type === 'img' || el.type === 'image' ? image(el, kit) : undefined
}

async function image(el: h, kit: RenderKit): Promise<h> {
  const a = el.attrs ?? {}
  const stored = await store(kit.assets, sourceOf(el), { mediaType: a.mime ?? a.type, filename: a.filename ?? a.file })
  if (!('url' in stored)) return h.text(mediaText('image', stored))
  const attrs: Record<string, unknown> = { src: stored.url }
  for (const k of ['title', 'filename'] as const) if (label(a[k])) attrs[k] = label(a[k])
  for (const k of ['width', 'height'] as const) if (numberOf(a[k]) !== undefined) attrs[k] = numberOf(a[k])
  const summary = summaryOf(a.summary)
  if (summary) attrs.summary = summary
  return h('img', attrs)
}
