import h from '@satorijs/element'

/** Elements that carry media in their `src`. */
export const MEDIA_ELEMENTS = new Set(['img', 'image', 'audio', 'video', 'file'])

/** Visible text of an element tree: text nodes only (SPEC §4.7). */
export function visibleText(elements: h[]): string {
  let out = ''
  for (const el of elements) {
    if (el.type === 'text') out += el.attrs.content ?? ''
    else if (el.children?.length) out += visibleText(el.children)
  }
  return out
}

/**
 * Marks an `<img>` that send_message made from `<sticker name>` (its value: the sticker's name), so
 * the Koishi edge sends it as a sticker where the platform has the mark (SPEC §19). Camel-cased as
 * Koishi's element factory keeps attribute keys; written `kotodama-sticker` in markup. Only
 * send_message sets it: one the model writes itself is removed.
 */
export const STICKER_ATTR = 'kotodamaSticker'
