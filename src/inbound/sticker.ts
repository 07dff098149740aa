// A sticker as the model reads it (SPEC §19): `[sticker: asset://<id>]`, then its summary when it has
// one other than QQ's default, without brackets: `[sticker: asset://<id> 好耶]`. Its bytes are an
// asset like any image's, so the sticker library (issue 28) can know it by its bytes. Shapes:
// - NapCat (NapCatQQ packages/napcat-onebot api/msg.ts): a picture sent as a sticker is an `image`
//   with `sub_type: 1` and `summary` '[动画表情]'; a market face an `image` with `file: 'marketface'`
//   (or a gif's name), `emoji_id`, `emoji_package_id`, `key` and its name as `summary`.
// - LLOneBot / Lagrange (src/onebot11/entities.ts): an `mface` segment with `url`, `summary`,
//   `emoji_id`, `emoji_package_id`, `key`; the adapter passes it through with its `url`.
// Koishi camel-cases attribute keys (`subType`, `emojiId`); the snake-case spellings are accepted too.
// When the sticker library knows its bytes, its name and description follow (sticker-match.ts).
import h from '@satorijs/element'
import type { RenderKit } from './kit'
import { label, mediaText, sourceOf, store } from './media'
import { libraryLabel, stickerNote } from './sticker-match'

/** QQ's preview texts that say nothing about the sticker */
const DEFAULT_SUMMARIES = new Set(['[动画表情]', '[表情]', '[图片]', '动画表情'])

export function isSticker(el: h): boolean {
  if (el.type === 'mface') return true
  if (el.type !== 'img' && el.type !== 'image') return false
  const a = el.attrs ?? {}
  const sub = a.subType ?? a.sub_type
  return sub === 1 || sub === '1' || a.file === 'marketface'
    || a.emojiId !== undefined || a.emoji_id !== undefined || a.emojiPackageId !== undefined || a.emoji_package_id !== undefined
}

export function renderSticker(el: h, kit: RenderKit): Promise<h> | undefined {
  return isSticker(el) ? sticker(el, kit) : undefined
}

async function sticker(el: h, kit: RenderKit): Promise<h> {
  const a = el.attrs ?? {}
  const stored = await store(kit.assets, sourceOf(el), { mediaType: a.mime, filename: a.file === 'marketface' ? undefined : a.file })
  return h.text(mediaText('sticker', stored, stickerNote(summaryOf(a.summary), await libraryLabel(stored, kit, true))))
}

/** The summary without QQ's brackets ('[好耶]' → '好耶'); undefined for a default one. */
export function summaryOf(v: unknown): string | undefined {
  const s = label(v, 60)
  if (!s || DEFAULT_SUMMARIES.has(s)) return undefined
  return label(s.replace(/^\[(.*)\]$/s, '$1'), 60)
}
